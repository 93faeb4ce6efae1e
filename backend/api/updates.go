package api

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// UpdatesDefault is GET /api/updates' page size when no limit is asked;
// store.UpdatesMax the most a page holds.
const UpdatesDefault = 50

// updatesRoutes registers the Reader's Updates (docs/api.md, an addition
// beyond the contract): their New Chapters across the library, a page at
// a time.
func (s *Server) updatesRoutes() {
	s.mux.HandleFunc("GET /api/updates", s.reader(s.listUpdates))
}

// listUpdates answers one page of the Reader's Updates. Each query
// parameter is read once, and a value it cannot take is 400 with a
// sentence saying what it takes (a value is never echoed).
func (s *Server) listUpdates(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	q := r.URL.Query()
	for _, k := range []string{"limit", "before"} {
		if len(q[k]) > 1 {
			writeError(w, http.StatusBadRequest, k+" is given more than once; give it once")
			return
		}
	}
	limit := UpdatesDefault
	if v, ok := q["limit"]; ok {
		n, err := strconv.Atoi(v[0])
		if err != nil || n < 1 || n > store.UpdatesMax {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("limit must be a whole number from 1 to %d", store.UpdatesMax))
			return
		}
		limit = n
	}
	var before *store.UpdatesCursor
	if v, ok := q["before"]; ok {
		c, err := store.ParseUpdatesCursor(v[0])
		if err != nil {
			writeError(w, http.StatusBadRequest, `before must be the "next" of a page of GET /api/updates`)
			return
		}
		before = &c
	}
	p, err := s.Store.Updates(r.Context(), id.ReaderID, before, limit)
	if err != nil {
		s.internalError(w, r, "list updates", err)
		return
	}
	out := client.UpdatesResponse{Updates: make([]client.Update, len(p.Updates))}
	for i, u := range p.Updates {
		out.Updates[i] = updateJSON(u)
	}
	if p.Next != nil {
		next := p.Next.String()
		path := "/api/updates?" + url.Values{"before": {next}, "limit": {strconv.Itoa(limit)}}.Encode()
		out.Next, out.NextURL = &next, &path
	}
	writeJSON(w, http.StatusOK, out)
}

// updateJSON is one Update in the wire form: times in UTC, the day UTC's,
// and a story with no title known named by its Series id (as its card).
func updateJSON(u store.Update) client.Update {
	title := u.StoryTitle
	if title == "" {
		title = u.SeriesID
	}
	at := u.SeenAt.UTC()
	return client.Update{Day: at.Format("2006-01-02"), Site: u.Site, SeriesID: u.SeriesID, WorkID: u.WorkID, Title: title,
		Number: u.Number, SeriesNumber: u.SeriesNumber, ChapterTitle: u.ChapterTitle, URL: u.URL, SeenAt: at, Read: u.Read}
}
