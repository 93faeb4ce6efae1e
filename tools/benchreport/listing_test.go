package main

import (
	"strings"
	"testing"
	"time"
)

func TestListingFigures(t *testing.T) {
	raw := `BenchmarkListingDetection/mangadex-2  1  6129 ns/op  37.00 chapters  4.000 with_median_min  8.000 with_p95_min  1020 with_req/h  30.00 without_median_min  57.00 without_p95_min  1000 without_req/h
BenchmarkBrowserListingDetection/kagane-2  1  5000 ns/op  3.000 with_median_min  7.000 with_p95_min  30.00 without_median_min  55.00 without_p95_min  0.8000 with_behind_min  0.3000 without_behind_min
BenchmarkBrowserListingDetection/comix-2  1  5000 ns/op  1.600 with_behind_min  0.3000 without_behind_min
BenchmarkBrowserListingDetection/tab-2  1  5000 ns/op  820.0 with_tab_s/h  800.0 without_tab_s/h
BenchmarkListingRest-2  1  17315506282 ns/op  8.000 rest1h_p95_min  1000 rest1h_req/h  9.000 rest24h_p95_min  98.00 rest24h_req/h  24.00 rest_h
`
	res, err := parse(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	out := render(res, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	for _, want := range []string{
		"| Detection median with listings, simulated day (mangadex) | 4.00 min | 30.0 min | 0.13 (with / without listings) | ≤ 5 min ✓ |",
		"| Detection p95 with listings, simulated day (mangadex) | 8.00 min | 57.0 min | 0.14 (with / without listings) | ≤ 10 min ✓ |",
		"| Requests an hour with listings (mangadex) | 1020 req/h | 1000 req/h | 1.02 (with / without listings) | ≤ +5% ✓ |",
		"| Detection median with listings, simulated day (mangapill) | not measured |",
		"| Detection median with listings, simulated day, shared tab (kagane) | 3.00 min | 30.0 min | 0.10 (with / without listings) | ≤ 6 min ✓ |",
		"| Detection p95 with listings, simulated day, shared tab (kagane) | 7.00 min | 55.0 min | 0.13 (with / without listings) | ≤ 12 min ✓ |",
		"| Browser-tab seconds an hour with listings (three browser Lanes, measured tab costs) | 820 s/h | 800 s/h | 1.02 (with / without listings) | ≤ +10% ✓ |",
		"| Most behind with listings, simulated day, shared tab (kagane) | 0.80 min | 0.30 min | 2.67 (with / without listings) | ≤ +1 min ✓ |",
		"| Most behind with listings, simulated day, shared tab (comix) | 1.60 min | 0.30 min | 5.33 (with / without listings) | ≤ +1 min ✗ |",
		"| Longest Rest tried keeping the p95 with listings (MangaDex, for the record) | 24.0 h |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}
