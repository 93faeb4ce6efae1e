package main

// valueIs holds the displayed value at exactly want (to the report's two
// decimals).
func valueIs(want float64, text string) goal {
	return goal{text, func(v, _ float64) bool { return v > want-0.005 && v < want+0.005 }}
}

// noneLost holds a told ratio at 1: every (Reader, Work) owed the day's
// chapter was told it (the displayed two decimals would round a few lost
// away, so the value itself is checked).
func noneLost() goal {
	return goal{"= 1 (none lost)", func(v, _ float64) bool { return v >= 1 }}
}

// worksFigures are the Works measures (issue 29, ADR 0021): the simulated
// day against the same day without Works, the cost of id-linking and the
// quality of title suggestions on labelled real pairs.
func worksFigures() []figure {
	const day, link, sugg = "BenchmarkWorksDay", "BenchmarkLinkByIDs", "BenchmarkSuggestionQuality"
	return []figure{
		{what: "Works, simulated day: notices per (Reader, Work, number)", bench: day, unit: "notices_per_key", scale: 1, show: "per key",
			ref: day, refUnit: "without_notices_per_key", refScale: 1, ratioNote: "with / without Works", target: valueIs(1, "= 1.00")},
		{what: "Works, simulated day: (Reader, Work) told / owed", bench: day, unit: "told", scale: 1, show: "",
			ref: day, refUnit: "without_told", refScale: 1, ratioNote: "with / without Works", target: noneLost()},
		{what: "Works, simulated day from a cold start (ids learned in the day): (Reader, Work) told / owed", bench: day, unit: "cold_told", scale: 1, show: "",
			ref: day, refUnit: "without_told", refScale: 1, ratioNote: "cold / without Works", target: noneLost()},
		{what: "Works, simulated day from a cold start: notices per (Reader, Work, number)", bench: day, unit: "cold_notices_per_key", scale: 1, show: "per key",
			ref: day, refUnit: "without_notices_per_key", refScale: 1, ratioNote: "cold / without Works", target: valueIs(1, "= 1.00")},
		{what: "Works, simulated day: median first member's chapter to notice", bench: day, unit: "median_min", scale: 1, show: "min",
			ref: day, refUnit: "single_median_min", refScale: 1, ratioNote: "Works / single-Site bookmarks", target: ratioAtMost(1.05, "ratio ≤ 1.05")},
		{what: "Works, simulated day: Site requests", bench: day, unit: "requests", scale: 1, show: "req/day",
			ref: day, refUnit: "without_requests", refScale: 1, ratioNote: "with / without Works", target: ratioAtMost(1.01, "≤ +1%")},
		{what: "One Chapter Event at the largest Work allowed (6 members, 200 Readers, own offsets): median", bench: "BenchmarkWorkEventLargest", unit: "work_event_ms", scale: 1, show: "ms",
			ref: "BenchmarkWorkEventLargest", refUnit: "lone_event_ms", refScale: 1, ratioNote: "Work / lone Series, same Readers", target: valueBelow(50, "ms")},
		{what: "Id-linking 100,000 Series (time)", bench: link, unit: "s/100k_series", scale: 1, show: "s"},
		{what: "Id-linking 20,000 Series, set-based", bench: link, unit: "set_20k_s", scale: 1, show: "s",
			ref: link, refUnit: "per_pair_20k_s", refScale: 1, ratioNote: "set-based / link_by_id per pair"},
		{what: "Id-linking 100,000 Series (Site requests)", bench: link, unit: "site_requests", scale: 1, show: "requests", target: valueIs(0, "0")},
		{what: "Title suggestions on labelled real pairs: precision", bench: sugg, unit: "precision", scale: 1, show: ""},
		{what: "Title suggestions on labelled real pairs: recall", bench: sugg, unit: "recall", scale: 1, show: ""},
		{what: "Title suggestions on labelled real pairs: false auto-links", bench: sugg, unit: "false_auto_links", scale: 1, show: "links", target: valueIs(0, "0")},
	}
}
