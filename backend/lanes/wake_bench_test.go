package lanes_test

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/browser"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// The Lane's responsiveness (issue 14): how soon new work is read on an
// idle Lane, and how faithfully a busy Lane keeps its pace. Reported with
// their targets by tools/benchreport.

// watchedRoute wraps a route and reports the wall time each fetch of a
// Series page starts and ends, by the last path element of its URL.
type watchedRoute struct {
	sites.Fetcher
	mu      sync.Mutex
	started map[string]chan time.Time
	ended   map[string]chan time.Time
}

func newWatchedRoute(f sites.Fetcher) *watchedRoute {
	return &watchedRoute{Fetcher: f, started: map[string]chan time.Time{}, ended: map[string]chan time.Time{}}
}

// watch arms the route for one Series id.
func (w *watchedRoute) watch(id string) (started, ended chan time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	started, ended = make(chan time.Time, 1), make(chan time.Time, 1)
	w.started[id], w.ended[id] = started, ended
	return started, ended
}

func (w *watchedRoute) Fetch(ctx context.Context, req sites.Request) (*sites.Response, error) {
	var s, e chan time.Time
	if u, err := url.Parse(req.Page); err == nil {
		w.mu.Lock()
		for _, seg := range strings.Split(u.Path, "/") {
			if s, e = w.started[seg], w.ended[seg]; s != nil {
				delete(w.started, seg)
				delete(w.ended, seg)
				break
			}
		}
		w.mu.Unlock()
	}
	if s != nil {
		s <- time.Now()
	}
	resp, err := w.Fetcher.Fetch(ctx, req)
	if e != nil {
		e <- time.Now()
	}
	return resp, err
}

// idleLane is a running Manager whose Lane for site has read everything
// due and sleeps until the next Series is due (the clock stands still
// unless the benchmark moves it).
type idleLane struct {
	sim   *sitesim.Sim
	st    *store.Store
	clock *lanestest.FakeClock
	m     *lanes.Manager
	route *watchedRoute
	site  string
	fresh []string // simulator Series not yet stored
	gap   time.Duration
}

func newIdleLane(b *testing.B, site string, browserRoute bool) *idleLane {
	b.Helper()
	clock := lanestest.NewFakeClock(t0)
	sim, reg := startSim(b, sitesim.Config{SeriesPerSite: 400, Now: clock.Now})
	// No listing: these figures are the wake path alone. With one, the
	// Lane's first pass reads the listing and then waits out a Gap on the
	// fake clock that nothing here advances (a listing read that falls due
	// before a bookmark's read costs one Gap more, which the listing
	// benchmarks cover).
	reg.Get(site).ListingEvery = -1
	st := fastStore(b)
	cfg := lanes.Config{Store: st, Sites: reg, Plain: sitestest.Plain(b, sites.PlainOptions{}), Clock: clock, Enabled: true}
	l := &idleLane{sim: sim, st: st, clock: clock, site: site}
	if browserRoute {
		chrome := chromiumtest.Launch(b)
		br, err := browser.New(browser.Config{WSURL: chrome.HTTPURL(), ReadTimeout: 30 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = br.Close() })
		l.route = newWatchedRoute(br)
		cfg.Browser = l.route
	} else {
		l.route = newWatchedRoute(cfg.Plain)
		cfg.Plain = l.route
	}
	ids := sim.SeriesIDs(site, 400)
	ctx := context.Background()
	rows := make([]storetest.SeriesOpts, 100)
	for i, id := range ids[:100] {
		rows[i] = storetest.SeriesOpts{Site: site, ID: id, URL: sim.SeriesURL(site, id), CheckedAt: storetest.At(clock.Now())}
	}
	storetest.Series(ctx, b, st, rows...)
	l.fresh = ids[100:]
	l.gap, _ = lanes.EffectiveGap(reg.Get(site), 100)
	m, err := lanes.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	l.m = m
	l.m.Start(ctx)
	b.Cleanup(l.m.Stop)
	<-l.m.Listening()
	clock.WaitSleepers(ctx, 1)
	return l
}

// rest lets the idle Lane's last fetch fall more than a gap behind, short
// of waking it (its next Series is due an hour on).
func (l *idleLane) rest(ctx context.Context) {
	l.clock.WaitSleepers(ctx, 1)
	l.clock.Advance(l.gap + time.Second)
}

// BenchmarkBookmarkToFirstRead: a Reader bookmarks a Series on an idle
// plain Lane; the figure is the wall time from the bookmark's commit to the
// start of its first read (the wake through PostgreSQL, the pass's reads
// of the store). The Lane waits no gap: it was idle.
func BenchmarkBookmarkToFirstRead(b *testing.B) {
	l := newIdleLane(b, sitesim.MangaPill, false)
	ctx := context.Background()
	var total time.Duration
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		l.rest(ctx)
		id := l.fresh[i%len(l.fresh)]
		started, _ := l.route.watch(id)
		b.StartTimer()
		at := time.Now()
		if _, err := l.st.EnsureSeries(ctx, l.site, id, l.sim.SeriesURL(l.site, id)); err != nil {
			b.Fatal(err)
		}
		total += (<-started).Sub(at)
		b.StopTimer()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "first_read_ms")
	b.ReportMetric(float64(l.gap.Milliseconds()), "gap_ms")
}

// benchForced measures a Forced Poll on an idle Lane: from the request
// (stored, then Wake) to the end of the read.
func benchForced(b *testing.B, site string, browserRoute bool) {
	l := newIdleLane(b, site, browserRoute)
	ctx := context.Background()
	ids := l.sim.SeriesIDs(site, 100)
	var total, reads time.Duration
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		l.rest(ctx)
		id := ids[i%len(ids)]
		started, ended := l.route.watch(id)
		b.StartTimer()
		at := time.Now()
		if _, err := l.st.ForcePoll(ctx, site, id, l.clock.Now()); err != nil {
			b.Fatal(err)
		}
		l.m.Wake(site)
		s := <-started
		e := <-ended
		b.StopTimer()
		total += e.Sub(at)
		reads += e.Sub(s)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "forced_ms")
	b.ReportMetric(float64(reads.Milliseconds())/float64(b.N), "read_ms")
	b.ReportMetric(float64(l.gap.Milliseconds()), "gap_ms")
	// The target: one gap plus the read.
	b.ReportMetric(float64(l.gap.Milliseconds())+float64(reads.Milliseconds())/float64(b.N), "budget_ms")
}

// BenchmarkForcedPollPlain and BenchmarkForcedPollBrowser: the Owner's
// Forced Poll on an idle Lane, answered (read done) within one gap plus the
// read; the browser Lane's wake gate must not hold it.
func BenchmarkForcedPollPlain(b *testing.B) { benchForced(b, sitesim.MangaPill, false) }

func BenchmarkForcedPollBrowser(b *testing.B) { benchForced(b, sitesim.Kagane, true) }
