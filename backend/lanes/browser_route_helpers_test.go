package lanes_test

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/browser"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// browserSites are the registry's browser Sites, plainSite one of its plain ones.
var browserSites = []string{"kagane", "comix", "natomanga"}

const plainSite = "mangadex"

// routeEnv joins the real routes and Lanes: the simulator over HTTP, the
// real registry, the plain route, the browser route over a real Chromium,
// a Manager over a fresh database, and a fake clock for Lane time.
type routeEnv struct {
	clock *lanestest.FakeClock
	sim   *sitesim.Sim
	reg   *sites.Registry
	st    *store.Store
	plain sites.Fetcher
	b     *browser.Browser
	m     *lanes.Manager
}

// routeOpts adjusts newRouteEnv.
type routeOpts struct {
	// origins replaces Sites' simulator origins (a wrapping server).
	origins map[string]string
	// readTimeout bounds the browser's in-page read (10s when zero).
	readTimeout time.Duration
}

// newRouteEnv builds the environment with a Browser on the endpoint whose
// challenge wait is wait (wall time: the browser's own bound).
func newRouteEnv(t *testing.T, endpoint string, wait time.Duration, o routeOpts) *routeEnv {
	t.Helper()
	e := &routeEnv{clock: lanestest.NewFakeClock(t0)}
	e.sim = simtest.Start(t, sitesim.Config{SeriesPerSite: 6, Now: e.clock.Now})
	origins := e.sim.Origins()
	for k, v := range o.origins {
		origins[k] = v
	}
	var parts []string
	for _, n := range sitesim.SiteNames {
		parts = append(parts, n+"="+origins[n])
	}
	reg, err := registry.FromEnv(strings.Join(parts, ","))
	if err != nil {
		t.Fatal(err)
	}
	e.reg = reg
	e.st = fastStore(t)
	log := slog.New(slog.DiscardHandler)
	if os.Getenv("MB_DEBUG_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	e.plain = sitestest.Plain(t, sites.PlainOptions{TotalTimeout: 5 * time.Second})
	readTimeout := o.readTimeout
	if readTimeout == 0 {
		readTimeout = 10 * time.Second
	}
	e.b, err = browser.New(browser.Config{WSURL: endpoint, ChallengeWait: wait, ReadTimeout: readTimeout,
		PollInterval: 50 * time.Millisecond, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.b.Close() })
	m, err := lanes.New(lanes.Config{Store: e.st, Sites: reg, Plain: e.plain, Browser: e.b, Clock: e.clock,
		Log: log, Enabled: true, ReadTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	e.m = m
	t.Cleanup(m.WaitCovers)
	return e
}

// seed stores the first n simulator Series of a Site under their simulator
// URLs, created an hour before the fake clock's now (so a browser Lane's
// wake gate is open), in id order, and returns their ids.
func (e *routeEnv) seed(t *testing.T, site string, n int) []string {
	t.Helper()
	ids := e.sim.SeriesIDs(site, n)
	created := e.clock.Now().Add(-time.Hour)
	rows := make([]storetest.SeriesOpts, len(ids))
	for i, id := range ids {
		rows[i] = storetest.SeriesOpts{Site: site, ID: id, URL: e.sim.SeriesURL(site, id), CreatedAt: storetest.At(created.Add(time.Duration(i) * time.Second))}
	}
	storetest.Series(context.Background(), t, e.st, rows...)
	return ids
}

// pass runs one pass of the Site's Lane with the caller as the fake clock's
// only actor, so the gap between reads passes at once in Lane time.
func (e *routeEnv) pass(t *testing.T, site string) (store.Pass, time.Duration) {
	t.Helper()
	e.clock.SetActors(1)
	defer e.clock.SetActors(0)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return e.m.RunPass(ctx, site)
}

func (e *routeEnv) series(t *testing.T, site, id string) store.Series {
	t.Helper()
	s, err := e.st.GetSeries(context.Background(), site, id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// failures maps series id to the outcome of its failure row.
func (e *routeEnv) failures(t *testing.T, site string) map[string]string {
	t.Helper()
	rows, err := e.st.Pool().Query(context.Background(),
		`SELECT series_id, outcome FROM poll_failures WHERE site = $1`, site)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, o string
		if err := rows.Scan(&id, &o); err != nil {
			t.Fatal(err)
		}
		out[id] = o
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// wantRead checks that a Series holds the Latest Chapter the simulator
// shows and has no failure row.
func (e *routeEnv) wantRead(t *testing.T, site, id string) {
	t.Helper()
	s := e.series(t, site, id)
	if want := e.sim.Latest(site, id); s.LatestNumber == "" || s.LatestNumber != want || s.LatestSeenAt == nil || s.Title == "" {
		t.Errorf("%s %s: stored latest %q title %q seen %v, simulator shows %q", site, id, s.LatestNumber, s.Title, s.LatestSeenAt, want)
	}
	if o, has := e.failures(t, site)[id]; has {
		t.Errorf("%s %s: failure row %q after a good read", site, id, o)
	}
}

// readPlain reads one Series through the Site's adapter on the plain route.
func (e *routeEnv) readPlain(site, id string) sites.Result {
	s := e.reg.Get(site)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return s.Adapter.Read(ctx, s, e.plain, id)
}
