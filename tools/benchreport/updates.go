package main

// updatesFigures are the Updates page's measures (issue 46): its p99 at
// 2,000 bookmarks and 20,000 Chapter Events, first page and an older one,
// and GET /api/updates, each beside GET /api/bookmarks of the same Reader
// in the same run.
func updatesFigures() []figure {
	const b = "BenchmarkWebUpdates2000"
	return []figure{
		{what: "Updates page p99, 2000 bookmarks (two thirds in Works), 20,000 Chapter Events (server time)", bench: b + "/page", unit: "p99_ms", scale: 1, show: "ms",
			ref: b + "/json", refUnit: "p99_ms", refScale: 1, ratioNote: "page / GET /api/bookmarks", target: valueBelow(50, "ms")},
		{what: "Updates page p99, ten pages back (cursor), same library", bench: b + "/page_older", unit: "p99_ms", scale: 1, show: "ms",
			ref: b + "/json", refUnit: "p99_ms", refScale: 1, ratioNote: "page / GET /api/bookmarks", target: valueBelow(50, "ms")},
		{what: "GET /api/updates p99, same library", bench: b + "/api", unit: "p99_ms", scale: 1, show: "ms",
			ref: b + "/json", refUnit: "p99_ms", refScale: 1, ratioNote: "updates / GET /api/bookmarks"},
	}
}
