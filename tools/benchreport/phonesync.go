package main

// phoneSyncFigures are the phone sync measures (issue 43, ADRs 0028,
// 0029, 0035): v1 uploads of a 5,000-manga library against a bare
// decode of the same bytes into Mihon's backup models in the same run (a first upload, a
// steady one with 5 manga changed, an unchanged one), a phone read to
// Progress against AniList's pull interval, and a read elsewhere to a v1
// device (v2: syncV2Figures).
func phoneSyncFigures() []figure {
	const up = "BenchmarkSyncUpload5000"
	return []figure{
		{what: "Phone sync first upload of a 5,000-manga library (HTTP, sealed, stored, every manga read in)", bench: up, unit: "first_ms", scale: 1, show: "ms",
			ref: up, refUnit: "decode_ms", refScale: 1, ratioNote: "upload / bare decode", target: ratioAtMost(2, "≤ 2×")},
		{what: "Phone sync steady upload of that library (5 manga read one chapter further)", bench: up, unit: "steady_ms", scale: 1, show: "ms",
			ref: up, refUnit: "decode_ms", refScale: 1, ratioNote: "upload / bare decode", target: ratioAtMost(2, "≤ 2×")},
		{what: "Phone sync upload of that library unchanged (an app start)", bench: up, unit: "same_ms", scale: 1, show: "ms",
			ref: up, refUnit: "decode_ms", refScale: 1, ratioNote: "upload / bare decode", target: ratioAtMost(2, "≤ 2×")},
		{what: "Phone sync first upload against a protowire walk of the same bytes (no value decoded)", bench: up, unit: "first_ms", scale: 1, show: "ms",
			ref: up, refUnit: "walk_ms", refScale: 1, ratioNote: "upload / walk"},
		{what: "Phone sync upload of a 5,000-manga library, peak RSS of the process", bench: up, unit: "peak_rss_MB", scale: 1, show: "MB",
			ref: "BenchmarkSyncDecode5000", refUnit: "peak_rss_MB", refScale: 1, ratioNote: "upload / bare decode", target: ratioAtMost(1.2, "≤ 1.2×")},
		{what: "Phone read to Progress, median (5,000-manga library, the phone's whole v1 sync)", bench: "BenchmarkPhoneReadToProgress", unit: "median_s", scale: 1, show: "s",
			ref: "BenchmarkPhoneReadToProgress", refUnit: "anilist_pull_s", refScale: 1, ratioNote: "of AniList's pull interval", target: valueAtMost(5, "s")},
		{what: "Phone read to Progress, max", bench: "BenchmarkPhoneReadToProgress", unit: "max_s", scale: 1, show: "s",
			target: valueAtMost(5, "s")},
		{what: "Read elsewhere shown read on a v1 phone at its next download (5,000-manga library)", bench: "BenchmarkReadElsewhereToV1Device", unit: "shown_next_download_pct", scale: 1, show: "%",
			target: valueAtLeast(100, "%")},
		{what: "That download (GET with the reads marked)", bench: "BenchmarkReadElsewhereToV1Device", unit: "get_marked_ms", scale: 1, show: "ms",
			ref: "BenchmarkReadElsewhereToV1Device", refUnit: "get_plain_ms", refScale: 1, ratioNote: "marked GET / GET with nothing read elsewhere"},
	}
}
