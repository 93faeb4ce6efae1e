package lanes_test

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
)

// listingBenchSpan is the simulated span of the listing benchmarks: a day,
// or MB_LISTING_BENCH_SPAN (a Go duration) for a quicker look.
func listingBenchSpan(b *testing.B) time.Duration {
	if v := os.Getenv("MB_LISTING_BENCH_SPAN"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("MB_LISTING_BENCH_SPAN=%q: %v", v, err)
		}
		return d
	}
	return 24 * time.Hour
}

// listingRun is one simulated span of one Site: 1,000 followed Series
// among 20,000, chapters published at 750 a day over the Site (MangaDex's
// English rate), and what the Lane made of it.
type listingRun struct {
	median, p95 time.Duration
	chapters    int
	reqPerHour  float64
	behind      time.Duration // the most the Lane fell behind (pass rows)
}

func runListing(b *testing.B, site string, every, rest time.Duration, span time.Duration) listingRun {
	b.Helper()
	return runListingSpec(b, listSpec{site: site, perSite: 20000, followed: 1000, every: every, rest: rest, perDay: 750}, span)
}

// runListingSpec drives one harness for span and measures it.
func runListingSpec(b *testing.B, sp listSpec, span time.Duration) listingRun {
	b.Helper()
	site := sp.site
	h := newListHarness(b, sp)
	h.drive(b, span)
	end := h.clock.Now()
	// Chapters published early enough that a Rest read was due before the
	// end: what both runs can detect.
	settle := h.s.Rest
	if settle > span/2 {
		settle = span / 2
	}
	lat := h.latencies(t0, end.Add(-settle), end)
	r := listingRun{median: quantile(lat, 0.5), p95: quantile(lat, 0.95), chapters: len(lat),
		reqPerHour: float64(len(h.rec.fetches())) / end.Sub(t0).Hours()}
	passes, err := h.st.ListPasses(context.Background(), site, 1<<20)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range passes {
		r.behind = max(r.behind, p.BehindBy)
	}
	return r
}

// BenchmarkListingDetection measures, per plain Site, how long a chapter
// of a followed Series waits until the Lane reads it (chapter published →
// Latest Chapter stored), with the listing read every five minutes and
// without (the reference, same simulator, same draw), the requests an hour
// each costs, and how far behind the Lane fell. Targets with listings:
// median ≤ 5 min, p95 ≤ 10 min, requests at most +5%. The six runs (three
// Sites, with and without) run at once, each on its own database,
// simulator and clock: each is bound by database round trips, not CPU.
func BenchmarkListingDetection(b *testing.B) {
	span := listingBenchSpan(b)
	type pair struct{ with, without listingRun }
	got := make([]pair, len(listingSites))
	for i := 0; i < b.N; i++ {
		var wg sync.WaitGroup
		for j, site := range listingSites {
			wg.Add(2)
			go func() { defer wg.Done(); got[j].with = runListing(b, site, 0, 0, span) }()
			go func() { defer wg.Done(); got[j].without = runListing(b, site, -1, 0, span) }()
		}
		wg.Wait()
	}
	for j, site := range listingSites {
		p := got[j]
		b.Run(site, func(b *testing.B) {
			b.ReportMetric(p.with.median.Minutes(), "with_median_min")
			b.ReportMetric(p.with.p95.Minutes(), "with_p95_min")
			b.ReportMetric(p.without.median.Minutes(), "without_median_min")
			b.ReportMetric(p.without.p95.Minutes(), "without_p95_min")
			b.ReportMetric(p.with.reqPerHour, "with_req/h")
			b.ReportMetric(p.without.reqPerHour, "without_req/h")
			b.ReportMetric(p.with.behind.Minutes(), "with_behind_min")
			b.ReportMetric(p.without.behind.Minutes(), "without_behind_min")
			b.ReportMetric(float64(p.with.chapters), "chapters")
		})
	}
}

// BenchmarkListingRest measures, on MangaDex with listings, the p95
// detection and the requests an hour at longer Rests, for the record: the
// longest Rest tried whose p95 stays within 10% (or a minute) of the p95
// at today's Rest of an hour, i.e. how long a Rest could be if the
// listing carried detection (ADR 0010 keeps Rest at an hour).
func BenchmarkListingRest(b *testing.B) {
	span := listingBenchSpan(b)
	rests := []time.Duration{time.Hour, 6 * time.Hour, 24 * time.Hour}
	runs := make([]listingRun, len(rests))
	for i := 0; i < b.N; i++ {
		var wg sync.WaitGroup
		for j, rest := range rests {
			wg.Add(1)
			go func() { defer wg.Done(); runs[j] = runListing(b, sitesim.MangaDex, 0, rest, span) }()
		}
		wg.Wait()
	}
	longest := time.Hour
	base := runs[0].p95
	for j, rest := range rests {
		if j > 0 && runs[j].p95 <= max(base+base/10, base+time.Minute) {
			longest = rest
		}
		h := itoa(int(rest.Hours()))
		b.ReportMetric(runs[j].p95.Minutes(), "rest"+h+"h_p95_min")
		b.ReportMetric(runs[j].reqPerHour, "rest"+h+"h_req/h")
	}
	b.ReportMetric(longest.Hours(), "rest_h")
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
