package lanes_test

import (
	"context"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// simHistory is how long the simulated Sites have published before t0, so
// the first listing look already sees a full page.
const simHistory = 6 * time.Hour

// recFetcher is the plain route, recording each fetch's Lane time and URL.
type recFetcher struct {
	inner sites.Fetcher
	clock lanes.Clock
	mu    sync.Mutex
	log   []fetchRec
}

type fetchRec struct {
	at  time.Time
	url *url.URL
}

func (f *recFetcher) Fetch(ctx context.Context, req sites.Request) (*sites.Response, error) {
	u, _ := url.Parse(req.Target())
	f.mu.Lock()
	f.log = append(f.log, fetchRec{at: f.clock.Now(), url: u})
	f.mu.Unlock()
	return f.inner.Fetch(ctx, req)
}

func (f *recFetcher) fetches() []fetchRec {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fetchRec(nil), f.log...)
}

// listHarness is one plain Site of the real registry over the simulator,
// a Manager on a fake clock and a fresh database, with followed Series.
type listHarness struct {
	site     string
	clock    *lanestest.FakeClock
	sim      *sitesim.Sim
	st       *store.Store
	m        *lanes.Manager
	s        *sites.Site
	rec      *recFetcher
	followed []string
}

type listSpec struct {
	site     string
	perSite  int           // Series on the Site
	followed int           // of which followed (indexes 0..followed-1)
	every    time.Duration // ListingEvery; negative: no listing
	rest     time.Duration // zero: the default Rest
	perDay   float64       // Poisson publication rate over the Site; zero: none
	route    sites.Fetcher // the browser route for a browser Site; nil: the plain route stands in
}

func newListHarness(t testing.TB, sp listSpec) *listHarness {
	t.Helper()
	h := &listHarness{site: sp.site, clock: lanestest.NewFakeClock(t0)}
	sim, reg := startSim(t, sitesim.Config{SeriesPerSite: sp.perSite, Now: h.clock.Now, Epoch: t0.Add(-simHistory)})
	h.sim = sim
	if sp.perDay > 0 {
		if err := sim.Publish(sp.site, sitesim.Publishing{PerDay: sp.perDay, Seed: 7, Horizon: simHistory + 50*time.Hour}); err != nil {
			t.Fatal(err)
		}
	}
	h.s = reg.Get(sp.site)
	if sp.every != 0 {
		h.s.ListingEvery = sp.every
	}
	if sp.rest > 0 {
		h.s.Rest = sp.rest
	}
	h.st = fastStore(t)
	h.rec = &recFetcher{inner: sp.route, clock: h.clock}
	if sp.route == nil {
		h.rec.inner = sitestest.Plain(t, sites.PlainOptions{TotalTimeout: 10 * time.Second})
	}
	m, err := lanes.New(lanes.Config{Store: h.st, Sites: reg, Plain: h.rec, Browser: h.rec, Clock: h.clock, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Stop)
	h.m = m
	h.follow(t, sp.followed)
	return h
}

// follow stores the first n Series of the Site as followed, read within
// the last Rest and evenly spread (the steady state), each with the
// number the Site shows.
func (h *listHarness) follow(t testing.TB, n int) {
	t.Helper()
	site, sim := h.site, h.sim
	h.followed = sim.SeriesIDs(site, n)
	rows := make([]storetest.SeriesOpts, len(h.followed))
	rest := h.s.Rest
	for i, id := range h.followed {
		// Read within the last Rest, evenly spread: the steady state.
		checked := t0.Add(-rest + time.Duration(i+1)*rest/time.Duration(len(h.followed)+1))
		rows[i] = storetest.SeriesOpts{Site: site, ID: id, URL: sim.SeriesURL(site, id), CreatedAt: storetest.At(t0.Add(-24 * time.Hour)),
			CheckedAt: &checked, LatestNumber: sim.Latest(site, id), SeenAt: &checked}
	}
	storetest.Series(context.Background(), t, h.st, rows...)
}

// drive runs the Lane's passes back to back on the fake clock for span.
func (h *listHarness) drive(t testing.TB, span time.Duration) {
	t.Helper()
	ctx := context.Background()
	end := h.clock.Now().Add(span)
	h.clock.SetActors(1)
	defer h.clock.SetActors(0)
	for h.clock.Now().Before(end) {
		_, pace := h.m.RunPass(ctx, h.site)
		if err := h.clock.Sleep(ctx, pace); err != nil {
			t.Fatal(err)
		}
	}
}

// isListing reports whether a fetch was of the Site's listing, and which page.
func isListing(site string, u *url.URL) (page int, ok bool) {
	switch site {
	case sitesim.MangaDex:
		if u.Path == "/chapter" {
			off := u.Query().Get("offset")
			if off == "0" {
				return 1, true
			}
			return 2, true
		}
	case sitesim.MangaPill:
		if u.Path == "/chapters" {
			return 1, true
		}
	case sitesim.WeebCentral:
		if rest, ok := strings.CutPrefix(u.Path, "/latest-updates/"); ok {
			if rest == "1" {
				return 1, true
			}
			return 2, true
		}
	case sitesim.Kagane:
		if u.Path == "/api/v2/search/series" {
			p, err := strconv.Atoi(u.Query().Get("page"))
			return p + 1, err == nil
		}
	case sitesim.Natomanga:
		if u.Path == "/manga-list/latest-manga" {
			p, err := strconv.Atoi(u.Query().Get("page"))
			return p, err == nil
		}
	}
	return 0, false
}

// readOf reports which Series a fetch read (the request that carries the
// Latest Chapter: MangaDex's feed, WeebCentral's chapter list, MangaPill's
// page, Kagane's details, natomanga's chapter JSON, Comix's title page), or "".
func readOf(site string, u *url.URL) string {
	p := strings.Split(strings.Trim(u.Path, "/"), "/")
	switch site {
	case sitesim.MangaDex:
		if len(p) == 3 && p[0] == "manga" && p[2] == "feed" {
			return p[1]
		}
	case sitesim.MangaPill:
		if len(p) == 2 && p[0] == "manga" {
			return p[1]
		}
	case sitesim.WeebCentral:
		if len(p) == 3 && p[0] == "series" && p[2] == "full-chapter-list" {
			return p[1]
		}
	case sitesim.Kagane:
		if len(p) == 4 && p[0] == "api" && p[2] == "series" {
			return p[3]
		}
	case sitesim.Natomanga:
		if len(p) == 4 && p[0] == "api" && p[1] == "manga" && p[3] == "chapters" {
			return p[2]
		}
	case sitesim.Comix:
		if len(p) == 2 && p[0] == "title" {
			return p[1]
		}
	}
	return ""
}

// reads maps each Series to the Lane times it was read, in order.
func (h *listHarness) reads() map[string][]time.Time {
	out := map[string][]time.Time{}
	for _, f := range h.rec.fetches() {
		if id := readOf(h.site, f.url); id != "" {
			out[id] = append(out[id], f.at)
		}
	}
	return out
}

// listings returns the times of the listing fetches of the given page.
func (h *listHarness) listings(page int) []time.Time {
	var out []time.Time
	for _, f := range h.rec.fetches() {
		if p, ok := isListing(h.site, f.url); ok && p == page {
			out = append(out, f.at)
		}
	}
	return out
}

// latencies is, for every chapter a followed Series published in
// [from, to), how long until the Lane next read that Series; a chapter
// never read by the end counts as end minus publication.
func (h *listHarness) latencies(from, to, end time.Time) []time.Duration {
	follow := map[string]bool{}
	for _, id := range h.followed {
		follow[id] = true
	}
	reads := h.reads()
	var out []time.Duration
	for _, r := range h.sim.Releases(h.site, to) {
		if !follow[r.SeriesID] || r.At.Before(from) {
			continue
		}
		rs := reads[r.SeriesID]
		i := sort.Search(len(rs), func(j int) bool { return !rs[j].Before(r.At) })
		if i < len(rs) {
			out = append(out, rs[i].Sub(r.At))
		} else {
			out = append(out, end.Sub(r.At))
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out
}

func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q * float64(len(sorted)-1))
	return sorted[i]
}
