package main

// releaseFigures are the release hint's measures (issue 44, ADR 0030): on
// the listing benchmarks' simulated day, per Site (Kagane with its
// listing, Comix with none), detection with MangaUpdates' release feed
// hinting against the same day without it, and the Site requests each
// costs. The release list is taken to show a chapter when the Site does
// (lag_min), the best case.
func releaseFigures() []figure {
	var out []figure
	for _, site := range []string{"kagane", "comix"} {
		bench := "BenchmarkReleaseHint/" + site
		alone := "listing alone"
		if site == "comix" {
			alone = "Rest alone"
		}
		out = append(out,
			figure{what: "Detection median with the release hint, simulated day (" + site + ")", bench: bench, unit: "with_median_min", scale: 1, show: "min",
				ref: bench, refUnit: "without_median_min", refScale: 1, ratioNote: "with the hint / " + alone},
			figure{what: "Detection p95 with the release hint, simulated day (" + site + ")", bench: bench, unit: "with_p95_min", scale: 1, show: "min",
				ref: bench, refUnit: "without_p95_min", refScale: 1, ratioNote: "with the hint / " + alone},
			figure{what: "Site requests an hour with the release hint (" + site + ")", bench: bench, unit: "with_req/h", scale: 1, show: "req/h",
				ref: bench, refUnit: "without_req/h", refScale: 1, ratioNote: "with the hint / " + alone, target: ratioAtMost(1.02, "≤ +2%")},
			figure{what: "Release list requests an hour (" + site + "'s day)", bench: bench, unit: "feed_req/h", scale: 1, show: "req/h"},
		)
	}
	return out
}
