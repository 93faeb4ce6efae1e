package api

import (
	"net/http"
	"strings"

	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// stateRoutes registers the reading-state routes of docs/api.md
// ("Status, freshness and reading states"). Each answers 200 with the
// bookmark or Work as it now reads; a value not one of the six is 400
// naming them; a bookmark or Work the Reader does not hold is 404.
func (s *Server) stateRoutes() {
	s.mux.HandleFunc("PUT /api/bookmarks/{site}/{series_id}/state", s.reader(s.limitWrites(capBody(smallBodyBytes, s.putBookmarkState))))
	s.mux.HandleFunc("PUT /api/works/{id}/state", s.reader(s.limitWrites(capBody(smallBodyBytes, s.putWorkState))))
}

// statesText names the six reading states for an error.
var statesText = strings.Join(store.ReadingStates, ", ")

// readingState decodes {"state":"..."}; a missing or unknown value is 400
// naming the six.
func readingState(w http.ResponseWriter, r *http.Request) (string, bool) {
	var body client.ReadingState
	if !decodeJSON(w, r, &body) {
		return "", false
	}
	if !store.ValidState(body.State) {
		writeError(w, http.StatusBadRequest, `field "state" must be one of: `+statesText)
		return "", false
	}
	return body.State, true
}

// stateFilter reads ?state= of GET /api/bookmarks: "" for none; another
// value than the six is 400 naming them.
func stateFilter(w http.ResponseWriter, r *http.Request) (string, bool) {
	q := r.URL.Query()
	if !q.Has("state") {
		return "", true
	}
	st := q.Get("state")
	if !store.ValidState(st) {
		writeError(w, http.StatusBadRequest, `the "state" filter must be one of: `+statesText)
		return "", false
	}
	return st, true
}

func (s *Server) putBookmarkState(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	site := s.siteOr404(w, r.PathValue("site"))
	if site == nil {
		return
	}
	state, ok := readingState(w, r)
	if !ok {
		return
	}
	seriesID := r.PathValue("series_id")
	err := s.Store.SetBookmarkState(r.Context(), id.ReaderID, site.Name, seriesID, state, s.Now())
	if !s.found(w, r, err, "set bookmark state", "you have no bookmark for that Series on "+site.Name) {
		return
	}
	s.writeBookmarkBack(w, r, id.ReaderID, site.Name, seriesID)
}

func (s *Server) putWorkState(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	workID, ok := workIDOr404(w, r)
	if !ok {
		return
	}
	state, ok := readingState(w, r)
	if !ok {
		return
	}
	err := s.Store.SetWorkState(r.Context(), id.ReaderID, workID, state, s.Now())
	if !s.found(w, r, err, "set work state", "no Work of yours has that id; GET /api/works lists them") {
		return
	}
	if wk, ok := s.heldWork(w, r, id.ReaderID); ok {
		writeJSON(w, http.StatusOK, s.workJSON(wk))
	}
}

// optString is s, or nil for "".
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
