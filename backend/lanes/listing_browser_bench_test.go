package lanes_test

import (
	"sync"
	"testing"
	"time"
)

// benchTabCost is the Lane time one browser fetch holds the shared tab in
// the browser listing benchmark: a solved page load and its in-page fetch.
const benchTabCost = 3 * time.Second

// BenchmarkBrowserListingDetection is BenchmarkListingDetection for the
// two browser Sites with a listing, with each fetch charged benchTabCost
// of tab time on the Lane clock (the simulator serves them without a
// challenge over the plain route: the cost is modelled, not Chrome's):
// detection median and p95 with the listing and without, the tab-seconds
// an hour each costs, and how far the Lane fell behind. Targets: median ≤
// 6 min, p95 ≤ 12 min, tab time at most +10%; the extra tab time an hour
// is what the other browser Lanes can wait for the shared tab.
func BenchmarkBrowserListingDetection(b *testing.B) {
	span := listingBenchSpan(b)
	type pair struct{ with, without listingRun }
	got := make([]pair, len(browserListingSites))
	for i := 0; i < b.N; i++ {
		var wg sync.WaitGroup
		for j, site := range browserListingSites {
			wg.Add(2)
			go func() { defer wg.Done(); got[j].with = runBrowserListing(b, site, 0, span) }()
			go func() { defer wg.Done(); got[j].without = runBrowserListing(b, site, -1, span) }()
		}
		wg.Wait()
	}
	for j, site := range browserListingSites {
		p := got[j]
		b.Run(site, func(b *testing.B) {
			b.ReportMetric(p.with.median.Minutes(), "with_median_min")
			b.ReportMetric(p.with.p95.Minutes(), "with_p95_min")
			b.ReportMetric(p.without.median.Minutes(), "without_median_min")
			b.ReportMetric(p.without.p95.Minutes(), "without_p95_min")
			b.ReportMetric(p.with.reqPerHour*benchTabCost.Seconds(), "with_tab_s/h")
			b.ReportMetric(p.without.reqPerHour*benchTabCost.Seconds(), "without_tab_s/h")
			b.ReportMetric(p.with.behind.Minutes(), "with_behind_min")
			b.ReportMetric(p.without.behind.Minutes(), "without_behind_min")
			b.ReportMetric(float64(p.with.chapters), "chapters")
		})
	}
}

func runBrowserListing(b *testing.B, site string, every, span time.Duration) listingRun {
	b.Helper()
	return runListingSpec(b, listSpec{site: site, perSite: 20000, followed: 1000, every: every, perDay: 750, tabCost: benchTabCost}, span)
}
