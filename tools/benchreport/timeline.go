package main

// timelineFigures are the time line's measures (issue 45, ADR 0032):
// simulated publishers read every Rest through the store, the expected
// date's error on weekly stories, the overdue cause, and the Site
// requests with the time line read beside the same run without it; the
// library page and GET /api/bookmarks at 2,000 bookmarks and 20,000
// Chapter Events, with reading states and freshness to show.
func timelineFigures() []figure {
	const pub = "BenchmarkPublishers"
	return []figure{
		{what: "Time line, simulated publishers: median absolute error of the expected date, weekly stories", bench: pub, unit: "weekly_mae_days", scale: 1, show: "days",
			ref: pub, refUnit: "weekly_releases", refScale: 1, ratioNote: "over this many weekly releases", target: valueBelow(1.0001, "day (≤ 1)")},
		{what: "Time line, simulated publishers: overdue cause named right", bench: pub, unit: "overdue_right", scale: 1, show: "",
			ref: pub, refUnit: "overdue_cases", refScale: 1, ratioNote: "right / cases (at least 40)",
			target: goal{"= 1 in ≥ 40 cases", func(v, _ float64) bool { return v >= 1 }}},
		{what: "Time line, simulated publishers: Site requests with the time line read", bench: pub, unit: "requests", scale: 1, show: "requests",
			ref: pub, refUnit: "without_requests", refScale: 1, ratioNote: "with / without the feature",
			target: goal{"ratio 1 ± 1%", func(_, r float64) bool { return r >= 0.99 && r <= 1.01 }}},
		{what: "Library page p99, 2000 bookmarks, 20,000 Chapter Events, state filter and sort (half kept) with freshness (server time)", bench: "BenchmarkWebLibrary2000/page_state", unit: "p99_ms", scale: 1, show: "ms",
			ref: "BenchmarkWebLibrary2000/json", refUnit: "p99_ms", refScale: 1, ratioNote: "page / GET /api/bookmarks", target: valueBelow(50, "ms")},
		{what: "Library page p99, 2000 bookmarks, 20,000 Chapter Events, state filter to a tenth (on hold) with freshness", bench: "BenchmarkWebLibrary2000/page_on_hold", unit: "p99_ms", scale: 1, show: "ms",
			ref: "BenchmarkWebLibrary2000/json", refUnit: "p99_ms", refScale: 1, ratioNote: "page / GET /api/bookmarks", target: valueBelow(50, "ms")},
		{what: "GET /api/bookmarks p50, 2000 bookmarks, 20,000 Chapter Events (one set-based statement)", bench: "BenchmarkWebLibrary2000/json", unit: "p50_ms", scale: 1, show: "ms",
			ref: "BenchmarkWebLibrary2000/page", refUnit: "p50_ms", refScale: 1, ratioNote: "GET /api/bookmarks / library page"},
	}
}
