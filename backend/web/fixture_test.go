package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/imports"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/readernotice/netguard"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
	"mangabookmark/backend/tokenbudget"
	"mangabookmark/backend/web"
)

const testKey = "web-test-token-key-0123456789abcdef"

// clock is the fixture's settable clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// fakeLanes records wakes.
type fakeLanes struct {
	mu    sync.Mutex
	wakes []string
}

func (l *fakeLanes) Wake(site string) { l.mu.Lock(); l.wakes = append(l.wakes, site); l.mu.Unlock() }

// Runtime: every poll switch on; natomanga is a browser Site without a
// sidecar, as in admintest.
func (l *fakeLanes) Runtime(site string) lanes.Runtime {
	return lanes.Runtime{Enabled: true, NoBrowser: site == "natomanga"}
}

func (l *fakeLanes) woken() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.wakes...)
}

// fixture is the real API server with the pages mounted, the real token
// service, over admintest's seeded world (Owner: Reader 1, Discord id
// 100; Reader: Reader 2, Discord id 200) plus a small library for Reader 2.
type fixture struct {
	st          *store.Store
	svc         *auth.Service
	srv         *httptest.Server
	clock       *clock
	lanes       *fakeLanes
	pages       *web.Handler
	notices     *readernotice.Service
	imports     *imports.Service
	ownerToken  string
	readerToken string
	readerTokID int64
}

func newFixture(t testing.TB, baseURL string) *fixture {
	t.Helper()
	return newFixtureWith(t, baseURL, nil)
}

// newFixtureWith is newFixture with the pages' Deps changed by with
// before the handler is built (nil: none).
func newFixtureWith(t testing.TB, baseURL string, with func(*web.Deps)) *fixture {
	t.Helper()
	ctx := context.Background()
	st := dbtest.New(t)
	if err := admintest.Seed(ctx, st, admintest.Now); err != nil {
		t.Fatal(err)
	}
	f := &fixture{st: st, clock: &clock{now: admintest.Now}, lanes: &fakeLanes{}}
	f.svc = mustAuth(t, auth.Config{Store: st, TokenKey: []byte(testKey), OwnerDiscordID: "100", Now: f.clock.Now})
	var err error
	if f.ownerToken, _, err = f.svc.MintOwnerToken(ctx, "owner web"); err != nil {
		t.Fatal(err)
	}
	var tok store.Token
	if f.readerToken, tok, err = f.svc.MintTokenRow(ctx, "200", "reader", "reader web"); err != nil {
		t.Fatal(err)
	}
	f.readerTokID = tok.ID
	seedLibrary(t, st, 2)
	reg := admintest.Registry(t)
	adm := mustAdmin(t, admin.Config{Store: st, Sites: reg, Lanes: f.lanes, Now: f.clock.Now})
	if f.imports, err = imports.New(imports.Config{Store: st, Sites: reg, Now: f.clock.Now}); err != nil {
		t.Fatal(err)
	}
	f.notices, err = readernotice.New(readernotice.Config{Store: st, Key: []byte(testKey), BaseURL: baseURL, Now: f.clock.Now,
		Guard: netguard.Guard{AllowNets: netguard.Loopback(), Timeout: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	// One token budget for both faces, as cmd wires them.
	budget, err := tokenbudget.New(tokenbudget.Config{Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	srv := mustAPI(t, api.Config{Store: st, Sites: reg, Auth: f.svc, Admin: adm, Now: f.clock.Now, BaseURL: baseURL, Imports: f.imports, ReaderNotices: f.notices, Budget: budget})
	deps := web.Deps{Store: st, Sites: reg, Admin: adm, Auth: f.svc, OwnerDiscordID: "100", BaseURL: baseURL, Now: f.clock.Now, Imports: f.imports, ReaderNotices: f.notices, Budget: budget}
	if with != nil {
		with(&deps)
	}
	f.pages = web.New(deps)
	srv.MountWeb(f.pages)
	f.srv = httptest.NewServer(srv)
	t.Cleanup(f.srv.Close)
	return f
}

// seedLibrary gives a Reader three bookmarks on mangapill: "2" read up to
// chapter 8 of 9 (a New Chapter, with a cover), "3" read to its Latest
// Chapter, and "40" the Lane has not read yet (checking); and one on
// weebcentral, "1", failing since 9 days.
func seedLibrary(t testing.TB, st *store.Store, readerID int64) {
	t.Helper()
	ctx := context.Background()
	now := admintest.Now
	storetest.Series(ctx, t, st, storetest.SeriesOpts{Site: "mangapill", ID: "40", Title: "Never Read Yet"})
	added := now.Add(-24 * time.Hour)
	storetest.Bookmarks(ctx, t, st,
		storetest.BookmarkOpts{ReaderID: readerID, Site: "mangapill", SeriesID: "2", CreatedAt: &added},
		storetest.BookmarkOpts{ReaderID: readerID, Site: "mangapill", SeriesID: "3", CreatedAt: &added},
		storetest.BookmarkOpts{ReaderID: readerID, Site: "mangapill", SeriesID: "40", CreatedAt: &added},
		storetest.BookmarkOpts{ReaderID: readerID, Site: "weebcentral", SeriesID: "1", CreatedAt: &added})
	for _, l := range []storetest.SeriesSet{
		{Site: "mangapill", IDs: []string{"2"}, LatestNumber: "9", LatestTitle: "The Ninth", LatestURL: "https://mangapill.test/chapter/2-9", SeenAt: storetest.At(now.Add(-3 * time.Hour))},
		{Site: "mangapill", IDs: []string{"3"}, LatestNumber: "20", LatestURL: "https://mangapill.test/chapter/3-20", SeenAt: storetest.At(now.Add(-2 * time.Hour))},
		{Site: "weebcentral", IDs: []string{"1"}, LatestNumber: "5", LatestURL: "https://weebcentral.test/chapter/1-5", SeenAt: storetest.At(now.Add(-10 * 24 * time.Hour))},
	} {
		storetest.SetSeries(ctx, t, st, l)
	}
	read := now.Add(-5 * time.Hour)
	storetest.Progress(ctx, t, st,
		storetest.ProgressOpts{ReaderID: readerID, Site: "mangapill", SeriesID: "2", Number: "8", ReadAt: &read},
		storetest.ProgressOpts{ReaderID: readerID, Site: "mangapill", SeriesID: "3", Number: "20", ReadAt: &read})
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82")
	if err := st.PutCover(ctx, "mangapill", "2", store.Cover{SourceURL: "https://mangapill.test/c/2.png", ContentType: "image/png", Body: png, FetchedAt: now}); err != nil {
		t.Fatal(err)
	}
}

// client is a browser-like client that keeps cookies but does not follow
// redirects, so tests see the 303s.
func (f *fixture) client(t testing.TB) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// login posts the token form and returns the logged-in client.
func (f *fixture) login(t testing.TB, token string) *http.Client {
	t.Helper()
	c := f.client(t)
	resp := f.postForm(t, c, "/login", url.Values{"token": {token}})
	if resp.code != http.StatusSeeOther || resp.header.Get("Location") != "/" {
		t.Fatalf("login: %d %s", resp.code, resp.body)
	}
	return c
}

type answer struct {
	code   int
	header http.Header
	body   string
}

func (f *fixture) do(t testing.TB, c *http.Client, req *http.Request) answer {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, string(b)}
}

func (f *fixture) get(t testing.TB, c *http.Client, path string) answer {
	t.Helper()
	req, _ := http.NewRequest("GET", f.srv.URL+path, nil)
	return f.do(t, c, req)
}

func (f *fixture) postForm(t testing.TB, c *http.Client, path string, form url.Values) answer {
	t.Helper()
	req, _ := http.NewRequest("POST", f.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", f.srv.URL) // as a browser sends with every form POST
	return f.do(t, c, req)
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf reads the csrf field from the page at path.
func (f *fixture) csrf(t testing.TB, c *http.Client, path string) string {
	t.Helper()
	a := f.get(t, c, path)
	m := csrfField.FindStringSubmatch(a.body)
	if m == nil {
		t.Fatalf("no csrf field on %s (%d)", path, a.code)
	}
	return m[1]
}

func mustAuth(t testing.TB, cfg auth.Config) *auth.Service {
	t.Helper()
	svc, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func mustAPI(t testing.TB, cfg api.Config) *api.Server {
	t.Helper()
	srv, err := api.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func mustAdmin(t testing.TB, cfg admin.Config) *admin.Service {
	t.Helper()
	a, err := admin.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
