package mangabakatest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"mangabookmark/backend/trackers"
)

// states are the room's statuses in MangaBaka's words.
var states = map[trackers.Status]string{
	trackers.StatusCurrent: "reading", trackers.StatusPlanning: "plan_to_read", trackers.StatusCompleted: "completed",
	trackers.StatusDropped: "dropped", trackers.StatusPaused: "paused", trackers.StatusRepeating: "rereading",
}

// fromStates reads a state back; "considering" is planning too.
var fromStates = map[string]trackers.Status{"considering": trackers.StatusPlanning}

func init() {
	for k, v := range states {
		fromStates[v] = k
	}
}

// entryJSON is one library entry with its series, in the recorded
// answer's shape (MB-library-fixture).
func entryJSON(u *user, e *trackers.Entry) map[string]any {
	id, _ := strconv.ParseInt(e.MediaID, 10, 64)
	state := states[e.Status]
	if state == "" {
		state = "reading"
	}
	return map[string]any{
		"note": nil, "read_link": nil, "rating": nil, "state": state, "priority": 20, "is_private": false,
		"number_of_rereads": 0, "progress_chapter": e.Progress, "progress_volume": nil,
		"start_date": nil, "finish_date": nil, "id": 1800000 + id, "series_id": id, "user_id": u.id, "Entries": []any{},
		"Series": map[string]any{"id": id, "state": "active", "merged_with": nil, "title": "Series " + e.MediaID,
			"source": map[string]any{
				"anilist":       map[string]any{"id": nil, "rating": nil, "rating_normalized": nil},
				"manga_updates": map[string]any{"id": nil, "rating": nil, "rating_normalized": nil},
			}},
	}
}

// list answers GET /v1/my/library: page (from 1) of limit (1..100,
// default 12) entries, with pagination.next null on the last page.
func (s *Server) list(w http.ResponseWriter, r *http.Request, u *user) {
	q := r.URL.Query()
	page, limit := 1, 12
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			fail(w, http.StatusBadRequest, "Validation error")
			return
		}
		page = n
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			fail(w, http.StatusBadRequest, "Validation error")
			return
		}
		limit = n
	}
	s.mu.Lock()
	data := []any{}
	from := (page - 1) * limit
	for i := from; i < len(u.order) && i < from+limit; i++ {
		data = append(data, entryJSON(u, u.entries[u.order[i]]))
	}
	more := from+limit < len(u.order)
	s.mu.Unlock()
	var next any
	if more {
		next = fmt.Sprintf("/v1/my/library?page=%d&limit=%d", page+1, limit)
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": 200, "data": data, "pagination": map[string]any{"next": next}})
}

// one answers GET /v1/my/library/{series_id}: the entry, or 404.
func (s *Server) one(w http.ResponseWriter, u *user, media string) {
	s.mu.Lock()
	e := u.entries[media]
	var body map[string]any
	if e != nil {
		body = entryJSON(u, e)
		delete(body, "Series")
	}
	s.mu.Unlock()
	if e == nil {
		fail(w, http.StatusNotFound, "Not Found")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": 200, "data": body})
}

// writeBody is a POST or PUT body: the entry fields, no others
// (additionalProperties false); progress_chapter 0..10000.
type writeBody struct {
	State   *string  `json:"state"`
	Chapter *float64 `json:"progress_chapter"`
}

// write answers PUT (update an entry; 404 when there is none: whether PUT
// creates is not documented, and this stand-in does not) and POST (create
// one; 400 when it exists).
func (s *Server) write(w http.ResponseWriter, r *http.Request, u *user, media string) {
	var b writeBody
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil || (b.Chapter != nil && (*b.Chapter < 0 || *b.Chapter > 10000)) {
		fail(w, http.StatusBadRequest, "Validation error")
		return
	}
	st := trackers.StatusCurrent
	if b.State != nil {
		var ok bool
		if st, ok = fromStates[*b.State]; !ok {
			fail(w, http.StatusBadRequest, "Validation error")
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := u.entries[media]
	switch {
	case r.Method == http.MethodPut && e == nil:
		fail(w, http.StatusNotFound, "Not Found")
		return
	case r.Method == http.MethodPost && e != nil:
		fail(w, http.StatusBadRequest, "Series is already in your library")
		return
	case e == nil:
		e = &trackers.Entry{MediaID: media}
		u.entries[media] = e
		u.order = append(u.order, media)
	}
	if b.Chapter != nil {
		e.Progress = int(*b.Chapter)
	}
	if b.State != nil {
		e.Status = st
	}
	s.writes = append(s.writes, Write{User: u.name, Media: media, Method: r.Method, State: states[e.Status], Chapter: e.Progress})
	status := http.StatusOK
	if r.Method == http.MethodPost {
		status = http.StatusCreated
	}
	writeJSON(w, status, map[string]any{"status": status, "data": true})
}
