// Package anilisttest is a local AniList stand-in built from AniList's
// documented shapes (and those its users quote; see
// backend/trackers/anilist/testdata/README.md): the GraphQL endpoint
// (POST /) answers the four documents package anilist sends, and
// /api/v2/oauth/ holds the authorization-code flow. The tests use it, and
// `make demo` can point TRACKER_ORIGINS' anilist entry at it. It is not a
// GraphQL server: it recognises each document by the root field it asks
// for.
package anilisttest

import (
	"net/http"
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
	users    map[string]*user  // by lower-case name
	tokens   map[string]string // token to lower-case user name
	expired  map[string]bool   // tokens answered 401
	codes    map[string]string // authorization code to token
	limited  int               // the next requests answered 429
	limitFor time.Duration
	counts   map[string]int // requests by kind (trackers.Kind words)
	nextID   int
}

type user struct {
	id      int
	name    string
	entries map[string]trackers.Entry
	order   []string
}

// Config configures the stand-in.
type Config struct {
	// ClientID, ClientSecret and RedirectURL are the registered client the
	// token endpoint accepts ("" ClientID: "1").
	ClientID, ClientSecret, RedirectURL string
	// ApproveAs is the user the authorize page approves as at once (the
	// demo's Connect button); "" answers it 400.
	ApproveAs string
	// Now is the time X-RateLimit-Reset is written from (nil: time.Now).
	Now func() time.Time
	// Unchunked cuts a list asked for without `chunk` to this many entries
	// (0: the whole list). AniList documents no bound for such an answer;
	// a test sets one to show a client that ignores chunks reads a cut
	// list.
	Unchunked int
	// Observe, when set, is told of each GraphQL request before it is
	// answered: its kind (a trackers.Kind word) and whose it is (the list's
	// userName, or the user of the bearer token; "" when neither). A test
	// orders the requests of several Readers by it, with no clock.
	Observe func(kind, user string)
}

// New returns a stand-in with no users.
func New(cfg Config) *Server {
	if cfg.ClientID == "" {
		cfg.ClientID = "1"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Server{conf: cfg, users: map[string]*user{}, tokens: map[string]string{},
		expired: map[string]bool{}, codes: map[string]string{}, counts: map[string]int{}, nextID: 100}
}

// AddUser adds a user with a public manga list and returns its id.
func (s *Server) AddUser(name string, entries ...trackers.Entry) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	u := &user{id: s.nextID, name: name, entries: map[string]trackers.Entry{}}
	s.users[strings.ToLower(name)] = u
	for _, e := range entries {
		u.put(e)
	}
	return u.id
}

func (u *user) put(e trackers.Entry) {
	if _, ok := u.entries[e.MediaID]; !ok {
		u.order = append(u.order, e.MediaID)
	}
	u.entries[e.MediaID] = e
}

// SetEntry sets (or adds) one entry of name's list, as a Reader reading
// elsewhere would.
func (s *Server) SetEntry(name string, e trackers.Entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.users[strings.ToLower(name)]; u != nil {
		u.put(e)
	}
}

// Entry is name's entry for mediaID as the stand-in holds it.
func (s *Server) Entry(name, mediaID string) (trackers.Entry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[strings.ToLower(name)]
	if u == nil {
		return trackers.Entry{}, false
	}
	e, ok := u.entries[mediaID]
	return e, ok
}

// AddToken makes token one of name's.
func (s *Server) AddToken(token, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = strings.ToLower(name)
}

// Expire makes token answer 401 from now on (an unknown token answers
// AniList's HTTP 400 "Invalid token").
func (s *Server) Expire(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expired[token] = true
}

// AddCode makes code an authorization code the token endpoint trades
// once for token.
func (s *Server) AddCode(code, token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[code] = token
}

// RateLimit answers the next n GraphQL requests 429 with Retry-After
// wait (whole seconds).
func (s *Server) RateLimit(n int, wait time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limited, s.limitFor = n, wait
}

// Requests is how many requests of kind (a trackers.Kind word) arrived,
// 429s included.
func (s *Server) Requests(kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[kind]
}

// ServeHTTP routes the GraphQL endpoint and the OAuth paths.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/" && r.Method == http.MethodPost:
		s.graphql(w, r)
	case r.URL.Path == "/api/v2/oauth/authorize" && r.Method == http.MethodGet:
		s.authorize(w, r)
	case r.URL.Path == "/api/v2/oauth/token" && r.Method == http.MethodPost:
		s.token(w, r)
	default:
		http.NotFound(w, r)
	}
}
