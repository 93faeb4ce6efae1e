package sitesim

import (
	"strings"
	"testing"
)

// Every Site's ids are unique, invert to their index, and have the Site's
// real shape, for 10,000 Series per Site.
func TestSeriesIDsRoundTrip(t *testing.T) {
	t.Parallel()
	const n = 10000
	sim := mustNew(t, Config{SeriesPerSite: n})
	for _, site := range SiteNames {
		seen := make(map[string]bool, n)
		for i, id := range sim.SeriesIDs(site, n) {
			if seen[id] {
				t.Fatalf("%s: id %q repeats", site, id)
			}
			seen[id] = true
			got, ok := sim.lookup(site, id)
			if !ok || got != i {
				t.Fatalf("%s: lookup(%q) = %d, %v; want %d", site, id, got, ok, i)
			}
		}
		if _, ok := sim.lookup(site, seriesID(site, n)); ok {
			t.Errorf("%s: Series %d is past SeriesPerSite yet found", site, n)
		}
	}
	if _, ok := sim.lookup(MangaDex, strings.Repeat("0", 36)); ok {
		t.Error("a made-up MangaDex id was found")
	}
}
