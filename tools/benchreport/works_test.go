package main

import (
	"strings"
	"testing"
	"time"
)

func TestWorksFigures(t *testing.T) {
	raw := `BenchmarkWorksDay-2  1  62699879369 ns/op  1.000 cold_notices_per_key  0.9935 cold_told  6000 keys  30.17 median_min  29.85 multi_median_min  1.000 notices_per_key  71952 requests  29.55 single_median_min  1.000 told  1.167 without_notices_per_key  71952 without_requests  1.000 without_told
BenchmarkLinkByIDs-2  1  50098538418 ns/op  15.66 per_pair_20k_s  29.17 s/100k_series  5.269 set_20k_s  0 site_requests
BenchmarkSuggestionQuality-2  1  1600000000 ns/op  0 false_auto_links  0.7535 precision  0.8492 recall
`
	res, err := parse(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	out := render(res, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
	for _, want := range []string{
		"| Works, simulated day: notices per (Reader, Work, number) | 1.00 per key | 1.17 per key | 0.86 (with / without Works) | = 1.00 ✓ |",
		"| Works, simulated day: median first member's chapter to notice | 30.2 min | 29.6 min | 1.02 (Works / single-Site bookmarks) | ratio ≤ 1.05 ✓ |",
		"| Works, simulated day: (Reader, Work) told / owed | 1.00  | 1.00  | 1.00 (with / without Works) | = 1 (none lost) ✓ |",
		"| Works, simulated day from a cold start (ids learned in the day): (Reader, Work) told / owed | 0.99  | 1.00  | 0.99 (cold / without Works) | = 1 (none lost) ✗ |",
		"| Works, simulated day from a cold start: notices per (Reader, Work, number) | 1.00 per key | 1.17 per key | 0.86 (cold / without Works) | = 1.00 ✓ |",
		"| Works, simulated day: Site requests | 71952 req/day | 71952 req/day | 1.00 (with / without Works) | ≤ +1% ✓ |",
		"| Id-linking 100,000 Series (time) | 29.2 s |",
		"| Id-linking 20,000 Series, set-based | 5.27 s | 15.7 s | 0.34 (set-based / link_by_id per pair) |",
		"| Id-linking 100,000 Series (Site requests) | 0.00 requests |  |  | 0 ✓ |",
		"| Title suggestions on labelled real pairs: precision | 0.75  |",
		"| Title suggestions on labelled real pairs: false auto-links | 0.00 links |  |  | 0 ✓ |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}
