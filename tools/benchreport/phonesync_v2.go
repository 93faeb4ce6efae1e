package main

// syncV2Figures are the phone sync v2 measures (issue 43, ADR 0029): the
// merge of a 5,000-manga × 20-chapter library from Mihon's models.
func syncV2Figures() []figure {
	const bench = "BenchmarkMergeV2"
	return []figure{
		{what: "Web/userscript read → shown read on the v2 phone at its first merge since (20 manga, 2 chapters each)", bench: "BenchmarkReadElsewhereToDevice", unit: "shown_first_merge_pct", scale: 1, show: "%",
			target: goal{"100% at the first merge", func(v, _ float64) bool { return v >= 100 }}},
		{what: "Phone sync v2: first (full) merge of 5,000 manga × 20 chapters (the merge alone)", bench: bench, unit: "full_merge_s", scale: 1, show: "s"},
		{what: "Phone sync v2: that first merge through HTTP, read in too, as a phone waits for it", bench: "BenchmarkV2FirstMerge5000", unit: "full_merge_s", scale: 1, show: "s",
			ref: "BenchmarkV2FirstMerge5000", refUnit: "client_timeout_s", refScale: 1, ratioNote: "of the client's 30 s timeout", target: ratioAtMost(1, "within the timeout")},
		{what: "Phone sync v2: a delta of one chapter, with the reads-out pass over the whole library", bench: bench, unit: "delta_reads_out_ms", scale: 1, show: "ms",
			ref: bench, refUnit: "delta_ms", refScale: 1, ratioNote: "with / without the reads-out pass"},
		{what: "Phone sync v2: a delta of one chapter, nothing read elsewhere since the last pass", bench: bench, unit: "delta_no_reads_since_ms", scale: 1, show: "ms",
			ref: bench, refUnit: "delta_ms", refScale: 1, ratioNote: "of a delta with no reads out", target: ratioAtMost(2, "≤ 2× a bare delta")},
	}
}
