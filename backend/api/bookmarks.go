package api

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// bookmarkJSON is one stored bookmark in the wire form the client package
// defines (client.Bookmark), with our own cover URL when a cover is stored.
func (s *Server) bookmarkJSON(b store.Bookmark) client.Bookmark {
	out := client.Bookmark{Site: b.Site, SeriesID: b.SeriesID, Title: b.Title, URL: b.URL, CoverURL: b.CoverURL, New: b.New, AddedBy: b.AddedBy, WorkID: b.WorkID}
	if b.NotifyMode != "" {
		out.Notify = &client.BookmarkNotify{Mode: b.NotifyMode, Pile: b.NotifyPile, PileDays: b.NotifyPileDays}
	}
	out.Status, out.FinalChapter, out.State = b.Status, optString(b.FinalChapter), b.State
	if b.HasCover {
		out.CoverURL = s.coverURL(b.Site, b.SeriesID)
	}
	if b.LatestNumber != "" {
		l := &client.Chapter{Number: b.LatestNumber, Title: b.LatestTitle, URL: b.LatestURL}
		if b.LatestSeenAt != nil {
			t := b.LatestSeenAt.UTC()
			l.SeenAt = &t
		}
		out.Latest = l
	}
	if b.ProgressNumber != "" && b.ProgressReadAt != nil {
		out.Progress = &client.Progress{Number: b.ProgressNumber, URL: b.ProgressURL, ReadAt: b.ProgressReadAt.UTC()}
	}
	out.TimeLine = s.timeLine(b.Clock, b.Site, b.Status, s.Now())
	return out
}

// coverURL is our own /covers/ path for a stored cover.
func (s *Server) coverURL(site, seriesID string) string {
	return strings.TrimRight(s.BaseURL, "/") + "/covers/" + url.PathEscape(site) + "/" + url.PathEscape(seriesID)
}

func (s *Server) listBookmarks(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	state, ok := stateFilter(w, r)
	if !ok {
		return
	}
	list, err := s.Store.ListBookmarks(r.Context(), id.ReaderID)
	if err != nil {
		s.internalError(w, r, "list bookmarks", err)
		return
	}
	out := make([]client.Bookmark, 0, len(list))
	for _, b := range list {
		if state == "" || b.State == state {
			out = append(out, s.bookmarkJSON(b))
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"bookmarks": out})
}

type addBookmarkBody struct {
	URL *string `json:"url"`
}

// addBookmark bookmarks the Series of any Series or chapter URL. A new
// bookmark is 201; re-adding an existing one is 200 with the same body. A
// new bookmark past the Reader's limits is 429 (new Series this hour) or
// 409 (bookmark cap), see reader_limits.go.
func (s *Server) addBookmark(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	var body addBookmarkBody
	if !decodeJSON(w, r, &body) {
		return
	}
	if body.URL == nil || strings.TrimSpace(*body.URL) == "" {
		writeError(w, http.StatusBadRequest, `field "url" is required: send the URL of a Series or chapter page`)
		return
	}
	ref, err := s.Sites.Canonicalize(*body.URL)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, canonicalReason(err))
		return
	}
	created, err := s.Store.AddReaderBookmark(r.Context(), id.ReaderID, ref.Site, ref.SeriesID, ref.URL)
	if s.writeLimitRefusal(w, err) {
		return
	}
	if err != nil {
		s.internalError(w, r, "add bookmark", err)
		return
	}
	b, err := s.Store.GetBookmark(r.Context(), id.ReaderID, ref.Site, ref.SeriesID)
	if err != nil {
		s.internalError(w, r, "read bookmark back", err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, s.bookmarkJSON(b))
}

// removeBookmark deletes one bookmark (204); the Series goes with the last
// one. An unknown Site or an absent bookmark is 404.
func (s *Server) removeBookmark(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	site := s.siteOr404(w, r.PathValue("site"))
	if site == nil {
		return
	}
	seriesID := r.PathValue("series_id")
	err := s.Store.RemoveBookmark(r.Context(), id.ReaderID, site.Name, seriesID)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "you have no bookmark for that Series on "+site.Name)
		return
	}
	if err != nil {
		s.internalError(w, r, "remove bookmark", err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
