package lanes_test

import (
	"context"
	"net/http"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/releasefeed"
	"mangabookmark/backend/releasefeed/releasefeedtest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store"
)

// releaseBenchSites: a browser Site with a listing (Kagane) and Comix,
// which has none.
var releaseBenchSites = []string{sitesim.Kagane, sitesim.Comix}

// muBase is the first made-up MangaUpdates API number of the simulated
// Site's Series (Series i has muBase + i).
const muBase = 70000000000

// releaseRun is one simulated span of one Site with or without the
// release feed: listingRun's figures plus the feed's requests.
type releaseRun struct {
	listingRun
	feedReqPerHour float64
	hintedPerHour  float64
}

// runRelease is the listing benchmarks' world (1,000 followed Series among
// 20,000, 750 chapters a day over the Site, the Site's listing when it has
// one) with, when feed is set, every followed Series carrying its mu id (as
// the crosswalk gives it: the simulated Site's own page carries an id of its
// own in the URL form, which a Site read keeps as the Site's word) and
// MangaUpdates' release list listing each chapter lag after the Site shows
// it, read by the release feed on the Lane's clock beside the Lane.
func runRelease(b *testing.B, site string, feed bool, lag, span time.Duration) releaseRun {
	b.Helper()
	h := newListHarness(b, listSpec{site: site, perSite: 20000, followed: 1000, perDay: 750})
	ctx := context.Background()
	var mu *releasefeedtest.Server
	var f *releasefeed.Feed
	if feed {
		index := map[string]int64{}
		for i, id := range h.sim.SeriesIDs(site, 20000) {
			index[id] = int64(i)
		}
		items := make([]store.SeriesIDs, len(h.followed))
		for i, id := range h.followed {
			items[i] = store.SeriesIDs{Site: site, SeriesID: id,
				IDs: []store.ExternalID{{Kind: "mu", Value: strconv.FormatInt(muBase+index[id], 10), Source: store.IDFromCrosswalk}}}
		}
		if _, err := h.st.AddSeriesIDs(ctx, items); err != nil {
			b.Fatal(err)
		}
		mu = releasefeedtest.Start(b)
		mu.SetSource(func() []releasefeedtest.Row {
			now := h.clock.Now()
			all := h.sim.Releases(site, now.Add(-lag))
			var rows []releasefeedtest.Row
			for i := len(all) - 1; i >= 0 && all[i].At.After(now.Add(-30*time.Hour)); i-- {
				r := all[i]
				rows = append(rows, releasefeedtest.Row{ID: int64(i + 1), SeriesID: muBase + index[r.SeriesID],
					Chapter: strconv.Itoa(r.Number), Added: r.At.Add(lag)})
			}
			return rows
		})
		reg, err := sites.NewRegistry([]*sites.Site{h.s})
		if err != nil {
			b.Fatal(err)
		}
		c, err := releasefeed.NewClient(mu.URL, &http.Client{Timeout: 10 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		if f, err = releasefeed.New(releasefeed.Config{Store: h.st, Sites: reg, Client: c, Clock: h.clock}); err != nil {
			b.Fatal(err)
		}
	}
	hinted := driveWithFeed(b, h, f, span)
	end := h.clock.Now()
	settle := min(h.s.Rest, span/2)
	lat := h.latencies(t0, end.Add(-settle), end)
	r := releaseRun{listingRun: listingRun{median: quantile(lat, 0.5), p95: quantile(lat, 0.95), chapters: len(lat),
		reqPerHour: float64(len(h.rec.fetches())) / end.Sub(t0).Hours()}}
	if mu != nil {
		r.feedReqPerHour = float64(len(mu.Requests())) / end.Sub(t0).Hours()
		r.hintedPerHour = float64(hinted) / end.Sub(t0).Hours()
	}
	return r
}

// driveWithFeed runs the Lane's passes and, beside them on the same
// clock, the feed's reads (when f is set) for span. As in production, a
// read that hinted wakes the Lane (here through the Manager's Wake; the
// store's wake trigger does it there), which ends a pass in flight so the
// next one reads what is due. It returns how many Series the feed hinted.
func driveWithFeed(b *testing.B, h *listHarness, f *releasefeed.Feed, span time.Duration) int {
	b.Helper()
	if f == nil {
		h.drive(b, span)
		return 0
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	end := h.clock.Now().Add(span)
	h.clock.SetActors(2)
	defer h.clock.SetActors(0)
	hinted := 0
	var wg sync.WaitGroup
	wg.Go(func() {
		defer h.clock.SetActors(1)
		for h.clock.Now().Before(end) {
			r, err := f.RunOnce(ctx)
			if err != nil {
				b.Error(err)
				return
			}
			if n := r.Hinted[h.site]; n > 0 {
				hinted += n
				h.m.Wake(h.site)
			}
			if h.clock.Sleep(ctx, max(r.Wait, time.Second)) != nil {
				return
			}
		}
	})
	for h.clock.Now().Before(end) {
		_, pace := h.m.RunPass(ctx, h.site)
		if err := h.clock.Sleep(ctx, pace); err != nil {
			b.Fatal(err)
		}
	}
	cancel()
	wg.Wait()
	return hinted
}

// BenchmarkReleaseHint is issue 44's release-hint measure: on the
// simulated day of the listing benchmarks, per Site (Kagane, a browser Site
// with a listing; Comix, with none), how long a chapter of a followed
// Series waits until its Lane reads it with MangaUpdates' release feed
// hinting (listing as well where the Site has one) and with the listing
// alone (Rest alone on Comix), and the Site requests each costs (target ≤
// +2%). The release list shows each chapter MB_RELEASE_LAG (default 0: the
// best case; no public measure of the list's lag against the Sites exists)
// after the Site does. The four runs run at once.
func BenchmarkReleaseHint(b *testing.B) {
	span := listingBenchSpan(b)
	lag := time.Duration(0)
	if v := envDuration(b, "MB_RELEASE_LAG"); v > 0 {
		lag = v
	}
	type pair struct{ with, without releaseRun }
	got := make([]pair, len(releaseBenchSites))
	for i := 0; i < b.N; i++ {
		var wg sync.WaitGroup
		for j, site := range releaseBenchSites {
			wg.Go(func() { got[j].with = runRelease(b, site, true, lag, span) })
			wg.Go(func() { got[j].without = runRelease(b, site, false, lag, span) })
		}
		wg.Wait()
	}
	for j, site := range releaseBenchSites {
		p := got[j]
		b.Run(site, func(b *testing.B) {
			b.ReportMetric(p.with.median.Minutes(), "with_median_min")
			b.ReportMetric(p.with.p95.Minutes(), "with_p95_min")
			b.ReportMetric(p.without.median.Minutes(), "without_median_min")
			b.ReportMetric(p.without.p95.Minutes(), "without_p95_min")
			b.ReportMetric(p.with.reqPerHour, "with_req/h")
			b.ReportMetric(p.without.reqPerHour, "without_req/h")
			b.ReportMetric(p.with.feedReqPerHour, "feed_req/h")
			b.ReportMetric(p.with.hintedPerHour, "hinted/h")
			b.ReportMetric(float64(p.with.chapters), "chapters")
			b.ReportMetric(lag.Minutes(), "lag_min")
		})
	}
}

// envDuration reads a Go duration from the environment (0 when unset).
func envDuration(b *testing.B, name string) time.Duration {
	b.Helper()
	v := os.Getenv(name)
	if v == "" {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		b.Fatalf("%s=%q: %v", name, v, err)
	}
	return d
}
