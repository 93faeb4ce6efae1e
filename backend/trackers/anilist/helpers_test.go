package anilist

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist/anilisttest"
)

var t0 = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// secretToken is a token no error text or log line may quote.
const secretToken = "eyJ0eXAiOiJKV1Qi.sekrit-reader-token.sig"

// env is one test's world: a client paced on a fake clock, its log, its
// counted requests.
type env struct {
	client *Client
	clock  *lanestest.FakeClock
	logBuf *syncBuffer
	rec    *countingRecorder
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type countingRecorder struct {
	mu   sync.Mutex
	seen map[[3]string]int
}

func (r *countingRecorder) Request(service, kind, result string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen[[3]string{service, kind, result}]++
}

func (r *countingRecorder) count(kind, result string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seen[[3]string{Name, kind, result}]
}

// newEnv builds a client against origin on a fake clock.
func newEnv(t *testing.T, origin string, maxBody int64) *env {
	t.Helper()
	clock := lanestest.NewFakeClock(t0)
	l, err := trackers.NewLimiter(trackers.LimiterConfig{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{clock: clock, logBuf: &syncBuffer{}, rec: &countingRecorder{seen: map[[3]string]int{}}}
	e.client, err = New(Config{Origin: origin, Limiter: l, Recorder: e.rec, MaxBody: maxBody,
		Log: slog.New(slog.NewTextHandler(e.logBuf, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// standIn starts the stand-in and a client against it.
func standIn(t *testing.T, cfg anilisttest.Config) (*anilisttest.Server, *env) {
	t.Helper()
	s := anilisttest.New(cfg)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	e := newEnv(t, srv.URL, 0)
	return s, e
}

// seen is one request a fixture server received.
type seen struct {
	Auth string
	Body map[string]any
}

// fixture serves one answer (status, headers, body) to every request and
// records what it received.
type fixture struct {
	mu     sync.Mutex
	status int
	header map[string]string
	body   []byte
	got    []seen
}

func (f *fixture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	f.mu.Lock()
	f.got = append(f.got, seen{Auth: r.Header.Get("Authorization"), Body: body})
	status, header, answer := f.status, f.header, f.body
	f.mu.Unlock()
	for k, v := range header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(answer)
}

func (f *fixture) requests() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.got...)
}

// serveFixture serves body (a file under testdata/ when it names one).
func serveFixture(t *testing.T, status int, header map[string]string, body string) (*fixture, *env) {
	t.Helper()
	f := &fixture{status: status, header: header, body: loadFixture(t, body)}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, newEnv(t, srv.URL, 0)
}

// newServer serves h on 127.0.0.1 for the test and returns its origin.
func newServer(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// loadFixture is body, or the file under testdata/ it names.
func loadFixture(t *testing.T, body string) []byte {
	t.Helper()
	if filepath.Ext(body) != ".json" {
		return []byte(body)
	}
	b, err := os.ReadFile(filepath.Join("testdata", body))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mustSleep returns once a goroutine sleeps on clock, and fails the test
// when done answers first (the wait it should have made never happened).
func mustSleep[T any](t *testing.T, clock *lanestest.FakeClock, done <-chan T) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	slept := make(chan bool, 1)
	go func() { slept <- clock.WaitSleepers(ctx, 1) }()
	select {
	case ok := <-slept:
		if !ok {
			t.Fatal("no goroutine slept on the clock")
		}
	case v := <-done:
		t.Fatalf("finished without waiting: %+v", v)
	}
}
