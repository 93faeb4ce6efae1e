package api_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/api"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/userscript"
)

const (
	testTokenKey = "0123456789abcdef0123456789abcdef-test-key"
	ownerID      = "100000000000000001"
	baseURL      = "https://mb.example.org"
)

// readerEnv is a real api.Server over a fresh database with the real token
// service, on httptest.
type readerEnv struct {
	t    testing.TB
	st   *store.Store
	auth *auth.Service
	reg  *sites.Registry
	srv  *httptest.Server
	logs *lockedBuffer
	now  time.Time
}

// lockedBuffer collects log output from concurrent handlers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// testRegistry is the real registry of the six Sites on their public hosts.
func testRegistry(t testing.TB) *sites.Registry {
	t.Helper()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func newReaderEnv(t testing.TB, opts ...func(*api.Config)) *readerEnv {
	t.Helper()
	st := dbtest.New(t)
	e := &readerEnv{t: t, st: st, reg: testRegistry(t), logs: &lockedBuffer{}, now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	log := slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var err error
	e.auth, err = auth.New(auth.Config{Store: st, TokenKey: []byte(testTokenKey), OwnerDiscordID: ownerID,
		Log: log, Now: func() time.Time { return e.now }})
	if err != nil {
		t.Fatal(err)
	}
	deps := api.Config{Store: st, Sites: e.reg, Auth: e.auth, Log: log, Now: func() time.Time { return e.now },
		BaseURL: baseURL, Userjs: userscript.Source}
	for _, o := range opts {
		o(&deps)
	}
	srv := newServer(t, deps)
	e.srv = httptest.NewServer(srv)
	t.Cleanup(e.srv.Close)
	return e
}

// token mints a Reader token for discordID.
func (e *readerEnv) token(discordID string) string {
	e.t.Helper()
	tok, _, err := e.auth.MintTokenRow(context.Background(), discordID, "reader "+discordID, "test")
	if err != nil {
		e.t.Fatal(err)
	}
	return tok
}

// do sends one request and returns the status and body.
func (e *readerEnv) do(token, method, path, body string) (int, []byte) {
	e.t.Helper()
	code, _, b := e.doH(token, method, path, body, nil)
	return code, b
}

// doH is do with extra request headers (a Content-Type there replaces the
// JSON default) that also returns the answer's headers.
func (e *readerEnv) doH(token, method, path, body string, hdr http.Header) (int, http.Header, []byte) {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

// count returns SELECT count(*) FROM table.
func (e *readerEnv) count(table string) int {
	e.t.Helper()
	var n int
	if err := e.st.Pool().QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}
