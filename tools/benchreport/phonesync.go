package main

// phoneSyncFigures are the phone sync measures (issue 43, ADR 0028): a
// v1 upload of a 5,000-manga library against a bare protowire decode of
// the same bytes, and a phone read to Progress against AniList's pull
// interval.
func phoneSyncFigures() []figure {
	return []figure{
		{what: "Phone sync upload of a 5,000-manga library (HTTP, sealed, stored, read in)", bench: "BenchmarkSyncUpload5000", unit: "ns/op", scale: 1e-6, show: "ms",
			ref: "BenchmarkSyncDecode5000", refUnit: "ns/op", refScale: 1e-6, ratioNote: "upload / bare decode", target: ratioAtMost(2, "≤ 2×")},
		{what: "Phone sync upload of a 5,000-manga library, peak RSS of the process", bench: "BenchmarkSyncUpload5000", unit: "peak_rss_MB", scale: 1, show: "MB",
			ref: "BenchmarkSyncDecode5000", refUnit: "peak_rss_MB", refScale: 1, ratioNote: "upload / bare decode", target: ratioAtMost(1.2, "≤ 1.2×")},
		{what: "Phone read to Progress, median (5,000-manga library, the phone's whole v1 sync)", bench: "BenchmarkPhoneReadToProgress", unit: "median_s", scale: 1, show: "s",
			ref: "BenchmarkPhoneReadToProgress", refUnit: "anilist_pull_s", refScale: 1, ratioNote: "of AniList's pull interval", target: valueAtMost(5, "s")},
		{what: "Phone read to Progress, max", bench: "BenchmarkPhoneReadToProgress", unit: "max_s", scale: 1, show: "s",
			target: valueAtMost(5, "s")},
	}
}
