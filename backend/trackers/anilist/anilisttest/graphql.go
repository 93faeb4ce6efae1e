package anilisttest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"mangabookmark/backend/trackers"
)

// request is a GraphQL request body.
type request struct {
	Query     string                     `json:"query"`
	Variables map[string]json.RawMessage `json:"variables"`
}

// kindOf recognises a document by the root field it asks for.
func kindOf(query string) string {
	switch {
	case strings.Contains(query, "MediaListCollection"):
		return trackers.KindList
	case strings.Contains(query, "SaveMediaListEntry"):
		return trackers.KindSave
	case strings.Contains(query, "mediaListEntry"):
		return trackers.KindProgress
	case strings.Contains(query, "Viewer"):
		return trackers.KindViewer
	}
	return ""
}

// gqlError writes a GraphQL error answer in AniList's shape: data with
// the root field null, and one error with its message and status.
func gqlError(w http.ResponseWriter, status int, root, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	data := any(nil)
	if root != "" {
		data = map[string]any{root: nil}
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"errors": []any{map[string]any{"message": message, "status": status,
			"locations": []any{map[string]int{"line": 2, "column": 3}}}},
		"data": data,
	})
}

func answer(w http.ResponseWriter, data any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
}

var roots = map[string]string{
	trackers.KindList: "MediaListCollection", trackers.KindSave: "SaveMediaListEntry",
	trackers.KindProgress: "Media", trackers.KindViewer: "Viewer",
}

func (s *Server) graphql(w http.ResponseWriter, r *http.Request) {
	var req request
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req); err != nil {
		gqlError(w, http.StatusBadRequest, "", "Must provide query string.")
		return
	}
	kind := kindOf(req.Query)
	if s.conf.Observe != nil {
		s.conf.Observe(kind, s.whose(r, req))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[kind]++
	if s.limited > 0 {
		s.limited--
		secs := int(s.limitFor.Seconds())
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		w.Header().Set("X-RateLimit-Limit", "90")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(s.conf.Now().Unix()+int64(secs), 10))
		gqlError(w, http.StatusTooManyRequests, "", "Too Many Requests.")
		return
	}
	w.Header().Set("X-RateLimit-Limit", "90")
	w.Header().Set("X-RateLimit-Remaining", "59")
	if kind == "" {
		gqlError(w, http.StatusBadRequest, "", "Cannot query field on type \"Query\".")
		return
	}
	var u *user
	if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		switch name, known := s.tokens[bearer]; {
		case s.expired[bearer]:
			gqlError(w, http.StatusUnauthorized, roots[kind], "Unauthorized.")
			return
		case !known || s.users[name] == nil:
			gqlError(w, http.StatusBadRequest, roots[kind], "Invalid token")
			return
		default:
			u = s.users[name]
		}
	}
	switch kind {
	case trackers.KindList:
		s.list(w, req)
	case trackers.KindProgress:
		s.progress(w, req, u)
	case trackers.KindSave:
		s.save(w, req, u)
	case trackers.KindViewer:
		if u == nil {
			gqlError(w, http.StatusUnauthorized, "Viewer", "Unauthorized.")
			return
		}
		answer(w, map[string]any{"Viewer": map[string]any{"id": u.id, "name": u.name}})
	}
}

// whose names the user a request is for: the list's userName, else the
// bearer token's user.
func (s *Server) whose(r *http.Request, req request) string {
	var name string
	if json.Unmarshal(req.Variables["userName"], &name) == nil && name != "" {
		return strings.ToLower(name)
	}
	bearer, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokens[bearer]
}

func wireEntry(e trackers.Entry) map[string]any {
	id, _ := strconv.Atoi(e.MediaID)
	return map[string]any{"mediaId": id, "status": string(e.Status), "progress": e.Progress}
}

// maxPerChunk is AniList's most entries a chunk ("max 500").
const maxPerChunk = 500

// list answers MediaListCollection: one list per status, in AniList's
// status order, the entries in the order they were added. With `chunk`
// (from 1) it answers that chunk of perChunk entries (default and most
// 500) of the whole list in that order, grouped into lists again, and
// hasNextChunk says whether entries remain (AniList's schema). Without
// it, the whole list, cut to Config.Unchunked entries when set.
func (s *Server) list(w http.ResponseWriter, req request) {
	var name string
	if json.Unmarshal(req.Variables["userName"], &name) != nil {
		gqlError(w, http.StatusBadRequest, "MediaListCollection", "validation")
		return
	}
	u := s.users[strings.ToLower(name)]
	if u == nil {
		gqlError(w, http.StatusNotFound, "MediaListCollection", "User not found")
		return
	}
	var all []trackers.Entry
	for _, st := range trackers.Statuses {
		for _, id := range u.order {
			if e := u.entries[id]; e.Status == st {
				all = append(all, e)
			}
		}
	}
	chunk, chunked, ok := intVar(req, "chunk")
	per, perSet, perOK := intVar(req, "perChunk")
	if !ok || !perOK || (chunked && chunk < 1) || (perSet && per < 1) {
		gqlError(w, http.StatusBadRequest, "MediaListCollection", "validation")
		return
	}
	next := false
	switch {
	case chunked:
		if !perSet || per > maxPerChunk {
			per = maxPerChunk
		}
		from := min((chunk-1)*per, len(all))
		to := min(from+per, len(all))
		next = to < len(all)
		all = all[from:to]
	case s.conf.Unchunked > 0 && len(all) > s.conf.Unchunked:
		all = all[:s.conf.Unchunked]
	}
	lists := []any{}
	for _, st := range trackers.Statuses {
		entries := []any{}
		for _, e := range all {
			if e.Status == st {
				entries = append(entries, wireEntry(e))
			}
		}
		if len(entries) > 0 {
			lists = append(lists, map[string]any{"entries": entries})
		}
	}
	answer(w, map[string]any{"MediaListCollection": map[string]any{"hasNextChunk": next, "lists": lists}})
}

// intVar reads an optional Int variable: its value, whether it was sent
// (null is not sent), and false when it is not an Int.
func intVar(req request, name string) (n int, set, ok bool) {
	raw, found := req.Variables[name]
	if !found || string(raw) == "null" {
		return 0, false, true
	}
	if json.Unmarshal(raw, &n) != nil {
		return 0, false, false
	}
	return n, true, true
}

func mediaVar(req request) (int, bool) {
	var id int
	if json.Unmarshal(req.Variables["mediaId"], &id) != nil || id <= 0 {
		return 0, false
	}
	return id, true
}

// progress answers Media { mediaListEntry }: the token's entry, or null
// (also without a token, as AniList documents).
func (s *Server) progress(w http.ResponseWriter, req request, u *user) {
	id, ok := mediaVar(req)
	if !ok {
		gqlError(w, http.StatusNotFound, "Media", "Not Found.")
		return
	}
	var entry any
	if u != nil {
		if e, ok := u.entries[strconv.Itoa(id)]; ok {
			entry = map[string]any{"status": string(e.Status), "progress": e.Progress}
		}
	}
	answer(w, map[string]any{"Media": map[string]any{"id": id, "mediaListEntry": entry}})
}

// save answers SaveMediaListEntry: the token's entry, created or changed.
func (s *Server) save(w http.ResponseWriter, req request, u *user) {
	if u == nil {
		gqlError(w, http.StatusUnauthorized, "SaveMediaListEntry", "Unauthorized.")
		return
	}
	id, ok := mediaVar(req)
	var n int
	var st string
	if !ok || json.Unmarshal(req.Variables["progress"], &n) != nil || n < 0 ||
		json.Unmarshal(req.Variables["status"], &st) != nil || !known(trackers.Status(st)) {
		gqlError(w, http.StatusBadRequest, "SaveMediaListEntry", "validation")
		return
	}
	e := trackers.Entry{MediaID: strconv.Itoa(id), Progress: n, Status: trackers.Status(st)}
	u.put(e)
	answer(w, map[string]any{"SaveMediaListEntry": wireEntry(e)})
}

func known(st trackers.Status) bool {
	for _, k := range trackers.Statuses {
		if st == k {
			return true
		}
	}
	return false
}

// String names the stand-in's state in a test failure.
func (s *Server) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("anilisttest: %d users, %d tokens, requests %v", len(s.users), len(s.tokens), s.counts)
}
