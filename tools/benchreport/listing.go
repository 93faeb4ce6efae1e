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
	out = append(out, browserListingFigures()...)
	return append(out,
		figure{what: "Longest Rest tried keeping the p95 with listings (MangaDex, for the record)", bench: "BenchmarkListingRest", unit: "rest_h", scale: 1, show: "h"},
		figure{what: "Detection p95 with listings at Rest 24 h (MangaDex)", bench: "BenchmarkListingRest", unit: "rest24h_p95_min", scale: 1, show: "min",
			ref: "BenchmarkListingRest", refUnit: "rest1h_p95_min", refScale: 1, ratioNote: "Rest 24 h / Rest 1 h"},
		figure{what: "Requests an hour with listings at Rest 24 h (MangaDex)", bench: "BenchmarkListingRest", unit: "rest24h_req/h", scale: 1, show: "req/h",
			ref: "BenchmarkListingRest", refUnit: "rest1h_req/h", refScale: 1, ratioNote: "Rest 24 h / Rest 1 h"},
	)
}

// plusAtMost holds the displayed value at most limit above the reference
// (the value itself when there is none).
func plusAtMost(limit float64, unit string) goal {
	return goal{fmt.Sprintf("≤ +%g %s", limit, unit), func(v, r float64) bool {
		if r == 0 {
			return v <= limit
		}
		return v-v/r <= limit
	}}
}

// browserListingFigures are issue 31's measures, from one run of the three
// browser Lanes through one shared tab (BenchmarkBrowserListingDetection):
// detection on the two Sites with a listing, the tab's seconds an hour,
// and how far behind each browser Lane fell, with the listings against
// without.
func browserListingFigures() []figure {
	const bench = "BenchmarkBrowserListingDetection/"
	var out []figure
	for _, site := range []string{"kagane", "natomanga"} {
		out = append(out,
			figure{what: "Detection median with listings, simulated day, shared tab (" + site + ")", bench: bench + site, unit: "with_median_min", scale: 1, show: "min",
				ref: bench + site, refUnit: "without_median_min", refScale: 1, ratioNote: "with / without listings", target: valueAtMost(6, "min")},
			figure{what: "Detection p95 with listings, simulated day, shared tab (" + site + ")", bench: bench + site, unit: "with_p95_min", scale: 1, show: "min",
				ref: bench + site, refUnit: "without_p95_min", refScale: 1, ratioNote: "with / without listings", target: valueAtMost(12, "min")},
		)
	}
	out = append(out, figure{what: "Browser-tab seconds an hour with listings (three browser Lanes, measured tab costs)", bench: bench + "tab", unit: "with_tab_s/h", scale: 1, show: "s/h",
		ref: bench + "tab", refUnit: "without_tab_s/h", refScale: 1, ratioNote: "with / without listings", target: ratioAtMost(1.10, "≤ +10%")})
	for _, site := range []string{"kagane", "comix", "natomanga"} {
		out = append(out, figure{what: "Most behind with listings, simulated day, shared tab (" + site + ")", bench: bench + site, unit: "with_behind_min", scale: 1, show: "min",
			ref: bench + site, refUnit: "without_behind_min", refScale: 1, ratioNote: "with / without listings", target: plusAtMost(1, "min")})
	}
	return out
}
