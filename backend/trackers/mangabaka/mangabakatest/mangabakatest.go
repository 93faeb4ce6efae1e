// Package mangabakatest is a local MangaBaka stand-in built from
// MangaBaka's published OpenAPI document and a recorded library answer
// (MB-OpenAPI and MB-library-fixture in docs/sources.md ("Ids, MangaBaka
// and MangaUpdates") §2, last checked 2026-12-06; see
// backend/trackers/mangabaka/testdata/README.md): the library routes
// under /v1/my (list in pages, one entry, update, create) and the profile,
// every one behind the x-api-key header. The tests use it, and
// TRACKER_ORIGINS' mangabaka entry can point at it.
package mangabakatest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"mangabookmark/backend/trackers"
)

// Server is the stand-in. Safe for concurrent use; serve it with
// httptest.NewServer or any http.Server.
type Server struct {
	conf Config

	mu       sync.Mutex
	users    map[string]*user // by token
	refused  map[string]bool  // tokens answered 401
	limited  int              // the next requests answered 429
	limitFor time.Duration
	counts   map[string]int // requests by kind (trackers.Kind words)
	writes   []Write
	nextUser int
}

type user struct {
	id, name string
	entries  map[string]*trackers.Entry
	order    []string
}

// Write is one write the stand-in took: whose (the account's name), which
// series, the method (PUT or POST) and the body's count and state.
type Write struct {
	User, Media, Method, State string
	Chapter                    int
}

// Config configures the stand-in.
type Config struct {
	// Observe, when set, is told of each request before it is answered:
	// its kind (a trackers.Kind word) and the account's name ("" for an
	// unknown token).
	Observe func(kind, user string)
}

// New returns a stand-in with no accounts.
func New(cfg Config) *Server {
	return &Server{conf: cfg, users: map[string]*user{}, refused: map[string]bool{}, counts: map[string]int{}, nextUser: 1}
}

// AddUser adds an account reached with token, named name, whose library
// holds entries (MediaID: the MangaBaka series id) in order.
func (s *Server) AddUser(token, name string, entries ...trackers.Entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := &user{id: "0198c0de-0000-7000-8000-" + strconv.Itoa(100000000000+s.nextUser), name: name, entries: map[string]*trackers.Entry{}}
	s.nextUser++
	for _, e := range entries {
		e := e
		if _, ok := u.entries[e.MediaID]; !ok {
			u.order = append(u.order, e.MediaID)
		}
		u.entries[e.MediaID] = &e
	}
	s.users[token] = u
}

// Refuse makes token answer 401 from now on (revoked on MangaBaka).
func (s *Server) Refuse(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refused[token] = true
}

// Entry is the library entry of token's account for media.
func (s *Server) Entry(token, media string) (trackers.Entry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[token]
	if u == nil || u.entries[media] == nil {
		return trackers.Entry{}, false
	}
	return *u.entries[media], true
}

// Count is how many requests of kind were answered (429s and 401s too).
func (s *Server) Count(kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[kind]
}

// Writes are the writes taken, in order.
func (s *Server) Writes() []Write {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Write(nil), s.writes...)
}

// LimitNext answers the next n requests 429 with Retry-After wait.
func (s *Server) LimitNext(n int, wait time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limited, s.limitFor = n, wait
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// fail answers MangaBaka's error shape: status and a message.
func fail(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{"status": status, "message": message})
}

// ServeHTTP answers the library routes and the profile.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	kind, media, ok := route(r)
	if !ok {
		fail(w, http.StatusNotFound, "Not Found")
		return
	}
	token := r.Header.Get("x-api-key")
	s.mu.Lock()
	s.counts[kind]++
	u := s.users[token]
	if s.refused[token] {
		u = nil
	}
	limited := s.limited > 0
	wait := s.limitFor
	if limited {
		s.limited--
	}
	s.mu.Unlock()
	if s.conf.Observe != nil {
		who := ""
		if u != nil {
			who = u.name
		}
		s.conf.Observe(kind, who)
	}
	switch {
	case limited:
		w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
		fail(w, http.StatusTooManyRequests, "Too Many Requests")
	case u == nil:
		fail(w, http.StatusUnauthorized, "Unauthorized")
	case kind == trackers.KindViewer:
		writeJSON(w, http.StatusOK, map[string]any{"status": 200, "data": map[string]any{
			"id": u.id, "preferred_username": u.name, "nickname": u.name, "scopes": []string{}}})
	case kind == trackers.KindList:
		s.list(w, r, u)
	case r.Method == http.MethodGet:
		s.one(w, u, media)
	default:
		s.write(w, r, u, media)
	}
}

// route names a request's kind and series id; ok is false for any other
// path.
func route(r *http.Request) (kind, media string, ok bool) {
	p := r.URL.Path
	switch {
	case p == "/v1/my/profile" && r.Method == http.MethodGet:
		return trackers.KindViewer, "", true
	case p == "/v1/my/library" && r.Method == http.MethodGet:
		return trackers.KindList, "", true
	case strings.HasPrefix(p, "/v1/my/library/"):
		media = strings.TrimPrefix(p, "/v1/my/library/")
		if _, err := strconv.ParseUint(media, 10, 40); err != nil {
			return "", "", false
		}
		switch r.Method {
		case http.MethodGet:
			return trackers.KindProgress, media, true
		case http.MethodPut, http.MethodPost:
			return trackers.KindSave, media, true
		}
	}
	return "", "", false
}

// SetEntry puts e on token's account's library (a write made on
// MangaBaka itself, not through the API).
func (s *Server) SetEntry(token string, e trackers.Entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[token]
	if u == nil {
		return
	}
	if _, ok := u.entries[e.MediaID]; !ok {
		u.order = append(u.order, e.MediaID)
	}
	u.entries[e.MediaID] = &e
}
