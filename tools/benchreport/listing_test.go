package main

import (
	"strings"
	"testing"
	"time"
)

func TestListingFigures(t *testing.T) {
	raw := `BenchmarkListingDetection/mangadex-2  1  6129 ns/op  37.00 chapters  4.000 with_median_min  8.000 with_p95_min  1020 with_req/h  30.00 without_median_min  57.00 without_p95_min  1000 without_req/h
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
		"| Longest Rest tried keeping the p95 with listings (MangaDex, for the record) | 24.0 h |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}
