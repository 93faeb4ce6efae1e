package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// A page script can forge reads (docs/adr/0018-forged-reads-and-junk-series.md).
// This file holds the Reader's answers to that: the preference that stops
// reads from creating bookmarks, and the explicit Progress correction.

// correctionRoutes registers GET/PUT /api/me/preferences and
// PUT /api/bookmarks/{site}/{series_id}/progress.
func (s *Server) correctionRoutes() {
	s.mux.HandleFunc("GET /api/me/preferences", s.reader(s.getPreferences))
	s.mux.HandleFunc("PUT /api/me/preferences", s.reader(s.limitWrites(capBody(smallBodyBytes, s.putPreferences))))
	s.mux.HandleFunc("PUT /api/bookmarks/{site}/{series_id}/progress", s.reader(s.limitWrites(capBody(urlBodyBytes, s.putProgress))))
}

// pastLatestReason explains a read refused as too far past the Latest
// Chapter, for the "errors" list of POST /api/progress.
func pastLatestReason(number, latest string) string {
	return fmt.Sprintf("past_latest: chapter %s is more than %d chapters past this Series' Latest Chapter (%s); "+
		"nothing was saved for it; if you really read it, set your Progress from the library page",
		number, store.PastLatestMargin, latest)
}

func (s *Server) getPreferences(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	p, err := s.Store.GetPreferences(r.Context(), id.ReaderID)
	if err != nil {
		s.internalError(w, r, "get preferences", err)
		return
	}
	writeJSON(w, http.StatusOK, client.Preferences{AutoAddReads: p.AutoAddReads})
}

type preferencesBody struct {
	AutoAddReads *bool `json:"auto_add_reads"`
}

func (s *Server) putPreferences(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	var body preferencesBody
	if !decodeJSON(w, r, &body) {
		return
	}
	if body.AutoAddReads == nil {
		writeError(w, http.StatusBadRequest, `field "auto_add_reads" is required: send {"auto_add_reads":true} or false`)
		return
	}
	p := store.Preferences{AutoAddReads: *body.AutoAddReads}
	if err := s.Store.SetPreferences(r.Context(), id.ReaderID, p); err != nil {
		s.internalError(w, r, "set preferences", err)
		return
	}
	writeJSON(w, http.StatusOK, client.Preferences{AutoAddReads: p.AutoAddReads})
}

type progressCorrectionBody struct {
	Number *string `json:"number"`
	URL    string  `json:"url"`
}

// putProgress sets the Reader's Progress on one bookmark to exactly the
// number sent (lower or higher): 200 with the bookmark, 404 when the
// Reader has no such bookmark.
func (s *Server) putProgress(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	site := s.siteOr404(w, r.PathValue("site"))
	if site == nil {
		return
	}
	seriesID := r.PathValue("series_id")
	var body progressCorrectionBody
	if !decodeJSON(w, r, &body) {
		return
	}
	if body.Number == nil {
		writeError(w, http.StatusBadRequest, `field "number" is required: send the chapter number, such as {"number":"12"}`)
		return
	}
	number, ok := sites.ParseNumber(*body.Number)
	if !ok {
		writeError(w, http.StatusBadRequest, fmt.Sprintf(`number %q must be a decimal chapter number such as "12" or "12.5"`, *body.Number))
		return
	}
	if err := s.checkReadURL(site, readJSON{SeriesID: seriesID, URL: body.URL}); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	err := s.Store.SetProgress(r.Context(), id.ReaderID, site.Name, seriesID, number, strings.TrimSpace(body.URL), s.Now().UTC())
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "you have no bookmark for that Series on "+site.Name)
		return
	}
	if err != nil {
		s.internalError(w, r, "set progress", err)
		return
	}
	s.writeBookmarkBack(w, r, id.ReaderID, site.Name, seriesID)
}

// writeBookmarkBack answers 200 with the Reader's bookmark as it now
// stands, read back after a change (Progress, reading state).
func (s *Server) writeBookmarkBack(w http.ResponseWriter, r *http.Request, readerID int64, site, seriesID string) {
	b, err := s.Store.GetBookmark(r.Context(), readerID, site, seriesID)
	if err != nil {
		s.internalError(w, r, "read bookmark back", err)
		return
	}
	writeJSON(w, http.StatusOK, s.bookmarkJSON(b))
}
