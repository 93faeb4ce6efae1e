package lanes_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path"
	"strconv"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
)

var t0 = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

// fakeAdapter answers reads from a script and records each read with the
// route it was handed and the Lane clock's time.
type fakeAdapter struct {
	clock lanes.Clock
	mu    sync.Mutex
	res   map[string]sites.Result
	def   sites.Result
	reads []fakeRead
	// onRead runs before the answer (block, sleep on the clock, cancel).
	onRead func(ctx context.Context, id string)
}

type fakeRead struct {
	id    string
	at    time.Time
	route sites.Fetcher
}

func newAdapter(c lanes.Clock) *fakeAdapter {
	return &fakeAdapter{clock: c, res: map[string]sites.Result{}, def: okResult("1", "")}
}

func okResult(number, cover string) sites.Result {
	return sites.Result{Outcome: sites.OK, Facts: sites.Facts{Title: "T", CoverURL: cover,
		Latest: &sites.Chapter{Number: number, URL: "https://ch/" + number}}}
}

func (a *fakeAdapter) set(id string, r sites.Result) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.res[id] = r
}

func (a *fakeAdapter) setOutcome(id string, o sites.Outcome) {
	a.set(id, sites.Result{Outcome: o, Err: fmt.Errorf("scripted %s", o)})
}

func (a *fakeAdapter) readLog() []fakeRead {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]fakeRead(nil), a.reads...)
}

func (a *fakeAdapter) readIDs() []string {
	var out []string
	for _, r := range a.readLog() {
		out = append(out, r.id)
	}
	return out
}

func (a *fakeAdapter) SeriesID(u *url.URL) (string, error) { return path.Base(u.Path), nil }

func (a *fakeAdapter) SeriesURL(s *sites.Site, id string) string { return s.Origin + "/series/" + id }

func (a *fakeAdapter) Read(ctx context.Context, s *sites.Site, f sites.Fetcher, id string) sites.Result {
	a.mu.Lock()
	a.reads = append(a.reads, fakeRead{id: id, at: a.clock.Now(), route: f})
	hook := a.onRead
	a.mu.Unlock()
	if hook != nil {
		hook(ctx, id)
	}
	if ctx.Err() != nil {
		return sites.Result{Outcome: sites.Errors, Err: ctx.Err()}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if r, ok := a.res[id]; ok {
		return r
	}
	return a.def
}

// env is one Manager over a fresh database.
type env struct {
	st      *store.Store
	clock   *lanestest.FakeClock
	m       *lanes.Manager
	plain   *sitestest.Fetcher
	browser *sitestest.Fetcher
	ad      map[string]*fakeAdapter
	sites   map[string]*sites.Site
}

type siteSpec struct {
	name    string
	browser bool
	gap     time.Duration
}

func newEnv(t testing.TB, mod func(*lanes.Config), specs ...siteSpec) *env {
	if os.Getenv("MB_DEBUG_LOG") != "" {
		prev := mod
		mod = func(c *lanes.Config) {
			c.Log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
			if prev != nil {
				prev(c)
			}
		}
	}
	t.Helper()
	e := &env{st: fastStore(t), clock: lanestest.NewFakeClock(t0), plain: sitestest.NewFetcher(),
		browser: sitestest.NewFetcher(), ad: map[string]*fakeAdapter{}, sites: map[string]*sites.Site{}}
	var list []*sites.Site
	for _, sp := range specs {
		a := newAdapter(e.clock)
		s := &sites.Site{Name: sp.name, Hosts: []string{sp.name + ".test"}, Browser: sp.browser,
			Gap: sp.gap, Adapter: a, Origin: "https://" + sp.name + ".test"}
		e.ad[sp.name], e.sites[sp.name] = a, s
		list = append(list, s)
	}
	reg, err := sites.NewRegistry(list)
	if err != nil {
		t.Fatal(err)
	}
	cfg := lanes.Config{Store: e.st, Sites: reg, Plain: e.plain, Browser: e.browser, Clock: e.clock,
		Enabled: true, LockRetry: 100 * time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	m, err := lanes.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.m = m
	t.Cleanup(m.Stop)
	return e
}

// seed inserts n Series named 1..n, created at created, never checked.
func (e *env) seed(t testing.TB, site string, n int, created time.Time) {
	t.Helper()
	rows := make([]storetest.SeriesOpts, n)
	for i := range rows {
		rows[i] = storetest.SeriesOpts{Site: site, ID: strconv.Itoa(i + 1), CreatedAt: storetest.At(created.Add(time.Duration(i+1) * time.Microsecond))}
	}
	storetest.Series(context.Background(), t, e.st, rows...)
}

// seedChecked inserts n Series named 1..n, last checked at checked (so
// routinely due once Rest has passed since).
func (e *env) seedChecked(t testing.TB, site string, n int, checked time.Time) {
	t.Helper()
	rows := make([]storetest.SeriesOpts, n)
	for i := range rows {
		rows[i] = storetest.SeriesOpts{Site: site, ID: strconv.Itoa(i + 1), CreatedAt: storetest.At(checked.Add(-24 * time.Hour)),
			CheckedAt: storetest.At(checked.Add(time.Duration(i+1) * time.Microsecond))}
	}
	storetest.Series(context.Background(), t, e.st, rows...)
}

func (e *env) series(t testing.TB, site, id string) store.Series {
	t.Helper()
	s, err := e.st.GetSeries(context.Background(), site, id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type failure struct {
	outcome string
	since   time.Time
	xmin    int64
}

func (e *env) failures(t testing.TB, site string) map[string]failure {
	t.Helper()
	rows, err := e.st.Pool().Query(context.Background(), `SELECT series_id, outcome, failing_since, xmin::text::bigint
		FROM poll_failures WHERE site = $1`, site)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]failure{}
	for rows.Next() {
		var id string
		var f failure
		if err := rows.Scan(&id, &f.outcome, &f.since, &f.xmin); err != nil {
			t.Fatal(err)
		}
		out[id] = f
	}
	return out
}

func (e *env) passes(t testing.TB, site string) []store.Pass {
	t.Helper()
	p, err := e.st.ListPasses(context.Background(), site, 100000)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// unchecked lists the Series of a Site never stamped.
func (e *env) unchecked(t testing.TB, site string) int {
	t.Helper()
	var n int
	if err := e.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM series WHERE site = $1 AND latest_checked_at IS NULL`, site).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// runPass runs one pass with the test goroutine as the clock's only actor,
// so gap sleeps pass instantly in simulated time.
func (e *env) runPass(t testing.TB, site string) (store.Pass, time.Duration) {
	t.Helper()
	e.clock.SetActors(1)
	defer e.clock.SetActors(0)
	return e.m.RunPass(context.Background(), site)
}

// fastStore is a fresh database whose commits skip the WAL flush wait:
// durability means nothing to a test, and the simulated days commit
// hundreds of thousands of times.
func fastStore(t testing.TB) *store.Store {
	t.Helper()
	dsn := dbtest.NewURL(t)
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	var db string
	if err := st.Pool().QueryRow(ctx, `SELECT current_database()`).Scan(&db); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `ALTER DATABASE "`+db+`" SET synchronous_commit = off`); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if st, err = store.Open(ctx, dsn); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st
}

// startSim starts the Site simulator and returns it with the real registry
// mapped onto it (SITE_ORIGINS), closing it when the test ends.
func startSim(tb testing.TB, cfg sitesim.Config) (*sitesim.Sim, *sites.Registry) {
	tb.Helper()
	sim := simtest.Start(tb, cfg)
	return sim, simtest.Registry(tb, sim)
}
