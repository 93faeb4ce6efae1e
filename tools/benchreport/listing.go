package main

import "fmt"

// valueAtMost holds the displayed value at or under limit.
func valueAtMost(limit float64, unit string) goal {
	return goal{fmt.Sprintf("≤ %g %s", limit, unit), func(v, _ float64) bool { return v <= limit }}
}

// listingFigures are the listing benchmarks (issue 20, ADR 0015): per
// plain Site, detection latency and requests with listings against the
// no-listing reference of the same run, and the Rest figure for the record.
func listingFigures() []figure {
	var out []figure
	for _, site := range []string{"mangadex", "mangapill", "weebcentral"} {
		bench := "BenchmarkListingDetection/" + site
		out = append(out,
			figure{what: "Detection median with listings, simulated day (" + site + ")", bench: bench, unit: "with_median_min", scale: 1, show: "min",
				ref: bench, refUnit: "without_median_min", refScale: 1, ratioNote: "with / without listings", target: valueAtMost(5, "min")},
			figure{what: "Detection p95 with listings, simulated day (" + site + ")", bench: bench, unit: "with_p95_min", scale: 1, show: "min",
				ref: bench, refUnit: "without_p95_min", refScale: 1, ratioNote: "with / without listings", target: valueAtMost(10, "min")},
			figure{what: "Requests an hour with listings (" + site + ")", bench: bench, unit: "with_req/h", scale: 1, show: "req/h",
				ref: bench, refUnit: "without_req/h", refScale: 1, ratioNote: "with / without listings", target: ratioAtMost(1.05, "≤ +5%")},
		)
	}
	return append(out,
		figure{what: "Longest Rest tried keeping the p95 with listings (MangaDex, for the record)", bench: "BenchmarkListingRest", unit: "rest_h", scale: 1, show: "h"},
		figure{what: "Detection p95 with listings at Rest 24 h (MangaDex)", bench: "BenchmarkListingRest", unit: "rest24h_p95_min", scale: 1, show: "min",
			ref: "BenchmarkListingRest", refUnit: "rest1h_p95_min", refScale: 1, ratioNote: "Rest 24 h / Rest 1 h"},
		figure{what: "Requests an hour with listings at Rest 24 h (MangaDex)", bench: "BenchmarkListingRest", unit: "rest24h_req/h", scale: 1, show: "req/h",
			ref: "BenchmarkListingRest", refUnit: "rest1h_req/h", refScale: 1, ratioNote: "Rest 24 h / Rest 1 h"},
	)
}
