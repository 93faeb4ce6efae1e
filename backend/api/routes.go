package api

import (
	"net/http"
	"sort"
	"sync"
)

// routeMux is the server's ServeMux that also remembers every pattern
// registered on it, so a test can hold the served routes to docs/api.md
// whichever file registers them.
type routeMux struct {
	*http.ServeMux
	mu       sync.Mutex
	patterns []string
}

func newRouteMux() *routeMux { return &routeMux{ServeMux: http.NewServeMux()} }

// Handle registers h for pattern and remembers the pattern.
func (m *routeMux) Handle(pattern string, h http.Handler) {
	m.remember(pattern)
	m.ServeMux.Handle(pattern, h)
}

// HandleFunc registers h for pattern and remembers the pattern.
func (m *routeMux) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	m.remember(pattern)
	m.ServeMux.HandleFunc(pattern, h)
}

func (m *routeMux) remember(pattern string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.patterns = append(m.patterns, pattern)
}

// routes lists every pattern registered on the server, sorted, including
// the catch-all "/" that answers 404 for any path not in docs/api.md.
func (s *Server) routes() []string {
	s.mux.mu.Lock()
	defer s.mux.mu.Unlock()
	out := append([]string(nil), s.mux.patterns...)
	sort.Strings(out)
	return out
}

// route reports the pattern that serves r ("" when none does, or only the
// method differs), as http.ServeMux.Handler resolves it.
func (s *Server) route(r *http.Request) string {
	_, pattern := s.mux.Handler(r)
	return pattern
}
