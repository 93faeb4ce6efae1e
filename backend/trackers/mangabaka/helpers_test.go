package mangabaka_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/mangabaka"
)

// jumpClock is a clock whose Sleep moves time on at once: the limiter's
// waits cost no wall time and are added up in slept.
type jumpClock struct {
	mu    sync.Mutex
	now   time.Time
	slept time.Duration
}

func (c *jumpClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *jumpClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.slept += d
	return ctx.Err()
}

func (c *jumpClock) Slept() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.slept
}

// counter counts requests by kind.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) Request(_, kind, result string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[kind+"/"+result]++
}

func (c *counter) get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[k]
}

// newClient is a Client of origin on a jump clock.
func newClient(t *testing.T, origin string, maxBody int64) (*mangabaka.Client, *jumpClock, *counter) {
	t.Helper()
	clock := &jumpClock{now: time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)}
	limit, err := trackers.NewLimiter(trackers.LimiterConfig{PerMinute: mangabaka.DefaultPerMinute, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	rec := &counter{}
	c, err := mangabaka.New(mangabaka.Config{Origin: origin, Limiter: limit, Recorder: rec, MaxBody: maxBody})
	if err != nil {
		t.Fatal(err)
	}
	return c, clock, rec
}

// fixture reads testdata/name.
func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// serve answers every request with status and body, and remembers the
// last request's method, path and x-api-key.
type served struct {
	mu     sync.Mutex
	reqs   []*http.Request
	bodies []string
}

func serve(t *testing.T, h func(w http.ResponseWriter, r *http.Request)) (string, *served) {
	t.Helper()
	s := &served{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := make([]byte, 4096)
		n, _ := r.Body.Read(b)
		s.mu.Lock()
		s.reqs = append(s.reqs, r)
		s.bodies = append(s.bodies, string(b[:n]))
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, s
}

func (s *served) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

func answer(status int, body []byte) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}
}
