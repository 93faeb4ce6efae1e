package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// Works: one story on several Sites (docs/adr/0021-works-link-by-ids.md).
// Every route answers only about the Reader's own library: a Work that
// holds none of their bookmarks, or a Series they do not bookmark, is 404.

// worksRoutes registers the Works routes of docs/api.md.
func (s *Server) worksRoutes() {
	s.mux.HandleFunc("GET /api/works", s.reader(s.listWorks))
	s.mux.HandleFunc("GET /api/works/{id}", s.reader(s.getWork))
	s.mux.HandleFunc("GET /api/series/{site}/{series_id}", s.reader(s.getSeries))
	s.mux.HandleFunc("PUT /api/series/{site}/{series_id}/ids", s.reader(s.limitWrites(capBody(smallBodyBytes, s.putSeriesID))))
	s.mux.HandleFunc("POST /api/works/link", s.reader(s.limitWrites(capBody(smallBodyBytes, s.linkWork))))
	s.mux.HandleFunc("DELETE /api/works/{id}/members/{site}/{series_id}", s.reader(s.limitWrites(s.unlinkMember)))
	s.mux.HandleFunc("PUT /api/works/{id}/members/{site}/{series_id}", s.reader(s.limitWrites(capBody(smallBodyBytes, s.putMemberOffset))))
	s.worksRulesRoutes()
}

func (s *Server) listWorks(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	ws, err := s.Store.ReaderWorks(r.Context(), id.ReaderID, s.Now())
	if err != nil {
		s.internalError(w, r, "list works", err)
		return
	}
	out := client.WorksResponse{Works: make([]client.Work, 0, len(ws))}
	for _, wk := range ws {
		out.Works = append(out.Works, s.workJSON(wk))
	}
	writeJSON(w, http.StatusOK, out)
}

// workIDOr404 reads {id}; a malformed one names no Work.
func workIDOr404(w http.ResponseWriter, r *http.Request) (int64, bool) {
	n, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || n <= 0 {
		writeError(w, http.StatusNotFound, "no Work of yours has that id; GET /api/works lists them")
		return 0, false
	}
	return n, true
}

// heldWork answers 404 unless the Work holds one of the Reader's
// bookmarks, and returns it.
func (s *Server) heldWork(w http.ResponseWriter, r *http.Request, readerID int64) (store.Work, bool) {
	workID, ok := workIDOr404(w, r)
	if !ok {
		return store.Work{}, false
	}
	wk, err := s.Store.ReaderWork(r.Context(), readerID, workID, s.Now())
	return wk, s.found(w, r, err, "get work", "no Work of yours has that id; GET /api/works lists them")
}

// found answers a store read's error: 404 with notFound for
// store.ErrNotFound, 500 (logged as what) for another. It reports whether
// there was none, so the caller goes on.
func (s *Server) found(w http.ResponseWriter, r *http.Request, err error, what, notFound string) bool {
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, notFound)
	case err != nil:
		s.internalError(w, r, what, err)
	default:
		return true
	}
	return false
}

func (s *Server) getWork(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	if wk, ok := s.heldWork(w, r, id.ReaderID); ok {
		writeJSON(w, http.StatusOK, s.workJSON(wk))
	}
}

// seriesOr404 answers the Reader's card of a Series they bookmark, or 404.
func (s *Server) seriesOr404(w http.ResponseWriter, r *http.Request, readerID int64) (store.SeriesCard, bool) {
	site := s.siteOr404(w, r.PathValue("site"))
	if site == nil {
		return store.SeriesCard{}, false
	}
	c, err := s.Store.ReaderSeries(r.Context(), readerID, site.Name, r.PathValue("series_id"))
	return c, s.found(w, r, err, "get series", "you have no bookmark for that Series on "+site.Name)
}

func (s *Server) getSeries(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	if c, ok := s.seriesOr404(w, r, id.ReaderID); ok {
		writeJSON(w, http.StatusOK, seriesCardJSON(c))
	}
}

type seriesIDBody struct {
	Kind  *string `json:"kind"`
	Value *string `json:"value"`
}

// putSeriesID stores an external id a Reader names (source reader, theirs:
// it replaces their own id of that kind) and links by it in their own
// library only: 200 with the Series' card; 409 when the link would give
// the Work a second Series on one Site (nothing is saved).
func (s *Server) putSeriesID(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	c, ok := s.seriesOr404(w, r, id.ReaderID)
	if !ok {
		return
	}
	var body seriesIDBody
	if !decodeJSON(w, r, &body) {
		return
	}
	if body.Kind == nil || body.Value == nil {
		writeError(w, http.StatusBadRequest, `fields "kind" and "value" are required: send {"kind":"al","value":"30002"}`)
		return
	}
	eid := store.ExternalID{Kind: strings.TrimSpace(*body.Kind), Value: strings.TrimSpace(*body.Value), Source: store.IDFromReader}
	if strings.Contains(eid.Value, "/") {
		// A link to the catalogue's page: the Sites' reader of links
		// takes the id out (and checks the host).
		id, ok := sites.NormalizeID(eid.Kind, eid.Value)
		if !ok {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("nothing was saved: that link names no %s id; send the id itself or a link to its page in the catalogue", eid.Kind))
			return
		}
		eid.Kind, eid.Value = id.Kind, id.Value
	}
	if err := store.CheckExternalID(eid); err != nil {
		var ie *store.IDError
		if errors.As(err, &ie) {
			writeError(w, http.StatusBadRequest, "nothing was saved: "+ie.Reason)
			return
		}
	}
	err := s.Store.NameSeriesID(r.Context(), id.ReaderID, c.Site, c.SeriesID, eid)
	var full *store.WorkFullError
	if errors.As(err, &full) {
		writeError(w, http.StatusConflict, full.Error())
		return
	}
	if err != nil {
		s.internalError(w, r, "add series id", err)
		return
	}
	if c, ok = s.seriesOr404(w, r, id.ReaderID); ok {
		writeJSON(w, http.StatusOK, seriesCardJSON(c))
	}
}

// unlinkMember takes a member out of a Work the Reader holds, in the
// Reader's library (for everyone once a second Reader unlinks it too):
// 200 with the Work as it is left for the Reader.
func (s *Server) unlinkMember(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	wk, ok := s.heldWork(w, r, id.ReaderID)
	if !ok {
		return
	}
	site := s.siteOr404(w, r.PathValue("site"))
	if site == nil {
		return
	}
	_, err := s.Store.UnlinkMember(r.Context(), id.ReaderID, wk.ID, site.Name, r.PathValue("series_id"))
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("that Series on %s is no member of Work %d", site.Name, wk.ID))
		return
	}
	if err != nil {
		s.internalError(w, r, "unlink member", err)
		return
	}
	s.writeWorkAfterAct(w, r, id.ReaderID, wk.ID)
}

// writeWorkAfterAct answers a Work act with the Work as it is now (empty
// of members when the act left none).
func (s *Server) writeWorkAfterAct(w http.ResponseWriter, r *http.Request, readerID, workID int64) {
	after, err := s.Store.WorkAfterAct(r.Context(), readerID, workID, s.Now())
	if errors.Is(err, store.ErrNotFound) {
		after, err = store.Work{ID: workID}, nil
	}
	if err != nil {
		s.internalError(w, r, "get work", err)
		return
	}
	writeJSON(w, http.StatusOK, s.workJSON(after))
}

type offsetBody struct {
	Offset *string `json:"offset"`
}

// offsetOf reads an offset body, answering 400 itself for a body that is
// no offset (missing, not a number, past the bound).
func offsetOf(w http.ResponseWriter, r *http.Request) (string, bool) {
	var body offsetBody
	if !decodeJSON(w, r, &body) {
		return "", false
	}
	if body.Offset == nil {
		writeError(w, http.StatusBadRequest, `field "offset" is required: send the number to add to this member's chapters, such as {"offset":"-100"}`)
		return "", false
	}
	off, err := store.ParseOffset(*body.Offset)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return "", false
	}
	return off, true
}

// putMemberOffset sets the caller's own offset on a member (another
// Reader's numbers do not move; docs/adr/0021-works-link-by-ids.md,
// "Offsets per Reader"): 200 with the Work as the caller sees it.
func (s *Server) putMemberOffset(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	wk, ok := s.heldWork(w, r, id.ReaderID)
	if !ok {
		return
	}
	site := s.siteOr404(w, r.PathValue("site"))
	if site == nil {
		return
	}
	off, ok := offsetOf(w, r)
	if !ok {
		return
	}
	_, err := s.Store.SetMemberOffset(r.Context(), id.ReaderID, wk.ID, site.Name, r.PathValue("series_id"), off)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("that Series on %s is no member of Work %d", site.Name, wk.ID))
		return
	}
	if err != nil {
		s.internalError(w, r, "set member offset", err)
		return
	}
	s.writeWorkAfterAct(w, r, id.ReaderID, wk.ID)
}

type seriesRefJSON struct {
	Site     *string `json:"site"`
	SeriesID *string `json:"series_id"`
}

type workLinkBody struct {
	A *seriesRefJSON `json:"a"`
	B *seriesRefJSON `json:"b"`
}

// linkWork is a Reader's hand link of two Series: 200 with the Work as
// the Reader now sees it (the link holds for them until another Reader
// makes it too); 404 when the Reader bookmarks neither; 409 when the Work
// would hold two Series on one Site.
func (s *Server) linkWork(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	var body workLinkBody
	if !decodeJSON(w, r, &body) {
		return
	}
	var refs [2]store.SeriesRef
	for i, ref := range []*seriesRefJSON{body.A, body.B} {
		name := [2]string{"a", "b"}[i]
		if ref == nil || ref.Site == nil || ref.SeriesID == nil || *ref.SeriesID == "" {
			writeError(w, http.StatusBadRequest, fmt.Sprintf(`field %q is required with its "site" and "series_id": send {"a":{"site":"mangadex","series_id":"..."},"b":{...}}`, name))
			return
		}
		site := s.Sites.Get(*ref.Site)
		if site == nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("%s.site names no Site; the Sites are: %s", name, s.siteNames()))
			return
		}
		refs[i] = store.SeriesRef{Site: site.Name, SeriesID: *ref.SeriesID}
	}
	if refs[0] == refs[1] {
		writeError(w, http.StatusBadRequest, `"a" and "b" name the same Series; name two Series of one story`)
		return
	}
	work, err := s.Store.LinkByHand(r.Context(), id.ReaderID, refs[0], refs[1])
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "you bookmark neither of those Series (or one is unknown); bookmark one first")
		return
	}
	var full *store.WorkFullError
	if errors.As(err, &full) {
		writeError(w, http.StatusConflict, full.Error())
		return
	}
	if err != nil {
		s.internalError(w, r, "link work", err)
		return
	}
	s.writeWorkAfterAct(w, r, id.ReaderID, work)
}
