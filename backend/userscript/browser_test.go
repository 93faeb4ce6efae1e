package userscript_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/api"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/userscript"
)

const testKey = "userscript-test-token-key-0123456789abcdef"

// backend is the real API server on a fixed loopback address that the test
// can stop and start again, as a dropped connection and a recovery.
type backend struct {
	t       *testing.T
	addr    string
	handler http.Handler
	srv     *http.Server

	mu      sync.Mutex
	applied int // sum of "applied" over every POST /api/progress answer
	posts   int
}

func (b *backend) start() {
	b.t.Helper()
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ { // the port may linger a moment after Close
		if ln, err = net.Listen("tcp", b.addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		b.t.Fatalf("listen %s: %v", b.addr, err)
	}
	b.addr = ln.Addr().String()
	b.srv = &http.Server{Handler: http.HandlerFunc(b.serve)}
	go func() { _ = b.srv.Serve(ln) }()
}

func (b *backend) stop() {
	if b.srv != nil {
		_ = b.srv.Close()
		b.srv = nil
	}
}

// serve counts what POST /api/progress applied, so the test can tell a
// read was stored once however often the queue sent it.
func (b *backend) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/api/progress" {
		b.handler.ServeHTTP(w, r)
		return
	}
	rec := &recorder{ResponseWriter: w}
	b.handler.ServeHTTP(rec, r)
	var res api.ProgressResultJSON
	if json.Unmarshal(rec.body.Bytes(), &res) == nil {
		b.mu.Lock()
		b.applied += res.Applied
		b.posts++
		b.mu.Unlock()
	}
}

type recorder struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (r *recorder) Write(p []byte) (int, error) {
	r.body.Write(p)
	return r.ResponseWriter.Write(p)
}

// env is a Reader with a token, the real API server and the served
// userscript, for one browser test.
type env struct {
	st     *store.Store
	svc    *auth.Service
	token  string
	reader store.Reader
	js     []byte // the userscript as GET /userscript/mangabookmark.user.js serves it
}

// newEnv makes the database, a Reader and its token. serve is the base URL
// the API server will answer on; it serves the userscript rendered for it.
func newEnv(t *testing.T, reg *sites.Registry) (*env, func(base string) http.Handler) {
	t.Helper()
	st := dbtest.New(t)
	ctx := context.Background()
	svc, err := auth.New(auth.Config{Store: st, TokenKey: []byte(testKey)})
	if err != nil {
		t.Fatal(err)
	}
	token, _, err := svc.MintTokenRow(ctx, "200000000000000002", "Ann", "browser test")
	if err != nil {
		t.Fatal(err)
	}
	reader, err := st.GetReaderByDiscordID(ctx, "200000000000000002")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{st: st, svc: svc, token: token, reader: reader}
	return e, func(base string) http.Handler {
		h, err := api.New(api.Config{Store: st, Sites: reg, Auth: svc, BaseURL: base, Userjs: userscript.Source})
		if err != nil {
			t.Fatal(err)
		}
		e.js = servedScript(t, h)
		return h
	}
}

// newRealSitesEnv is newEnv over the real registry (no SITE_ORIGINS), with
// the API server answering on a local port.
func newRealSitesEnv(t *testing.T) (*env, *httptest.Server) {
	t.Helper()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	e, handler := newEnv(t, reg)
	hs := httptest.NewServer(nil)
	t.Cleanup(hs.Close)
	hs.Config.Handler = handler(hs.URL)
	return e, hs
}

// servedScript is the userscript exactly as the API server serves it.
func servedScript(t *testing.T, h http.Handler) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, userscript.Path, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d", userscript.Path, rec.Code)
	}
	return rec.Body.Bytes()
}

// The served userscript on a MangaPill chapter page (the simulator mapped
// onto mangapill.com) records the read, follows SPA navigation, queues
// while the backend is down and drains once when it is back.
func TestUserscriptRecordsQueuesAndDrains(t *testing.T) {
	t.Parallel()
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 3})
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	e, handler := newEnv(t, reg)
	st, ctx := e.st, context.Background()
	be := &backend{t: t, addr: "127.0.0.1:0"}
	be.start()
	t.Cleanup(be.stop)
	base := "http://" + be.addr
	be.handler = handler(base)

	page := sharedPage(t)
	routePages(t, page, nil, map[string]string{"mangapill.com": sim.Origin("mangapill")})
	g := installUserscript(t, page, map[string]string{"mb_base_url": base, "mb_token": e.token}, e.js)
	keepReading(t, page)

	id := sim.SeriesIDs("mangapill", 1)[0]
	chapter := func(code, n string) string {
		return fmt.Sprintf("https://mangapill.com/chapters/%s-%s/series-chapter-%s", id, code, n)
	}

	// 1. A chapter page: the read lands in the database.
	nav(t, page, chapter("10105000", "105"))
	waitProgress(t, st, e.reader.ID, "mangapill", id, "105", 30*time.Second)
	waitStatus(t, page, "✓", 30*time.Second)

	// 2. SPA navigation (history.pushState) records the next chapter.
	if _, err := page.Eval(`(u) => history.pushState({}, '', u)`, chapter("10105500", "105-5")); err != nil {
		t.Fatal(err)
	}
	waitProgress(t, st, e.reader.ID, "mangapill", id, "105.5", 30*time.Second)
	// The database has the read before the script has the answer: wait
	// until the script has taken it off its queue, or a backend stopped
	// in between leaves it queued too (seen on a loaded machine).
	waitQueueEmpty(t, g, 30*time.Second)

	// 3. Backend down: the read is queued and the panel says so.
	be.stop()
	nav(t, page, chapter("10106000", "106"))
	waitStatus(t, page, "⟳ 1 pending", 30*time.Second)
	if p, _ := st.GetProgress(ctx, e.reader.ID, "mangapill", id); p.Number != "105.5" {
		t.Fatalf("progress moved while the backend was down: %s", p.Number)
	}
	if q := g.queue(); len(q) != 1 {
		t.Fatalf("queue length %d, want 1", len(q))
	}

	// 4. Backend back: the queue drains and Progress is stored once.
	be.start()
	if _, err := page.Eval(`() => window.dispatchEvent(new Event('online'))`); err != nil {
		t.Fatal(err)
	}
	waitProgress(t, st, e.reader.ID, "mangapill", id, "106", 30*time.Second)
	waitStatus(t, page, "✓", 30*time.Second)
	be.mu.Lock()
	applied := be.applied
	be.mu.Unlock()
	if applied != 3 {
		t.Fatalf("reads applied %d times in all, want 3 (105, 105.5, 106 once each)", applied)
	}
	var rows int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM progress`).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("progress rows %d (%v), want 1", rows, err)
	}
}
