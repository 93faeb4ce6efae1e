package main

import "fmt"

// valueAtLeast holds the displayed value at or over limit.
func valueAtLeast(limit float64, unit string) goal {
	return goal{fmt.Sprintf("≥ %g %s", limit, unit), func(v, _ float64) bool { return v >= limit }}
}

// idFigures are the measures of one MangaUpdates id and the crosswalk
// (issue 44): linking on the labelled stories of
// backend/crosswalk/testdata/mu_pairs.tsv whose members carry different mu
// forms, and the crosswalk's requests to MangaBaka (a stand-in).
func idFigures() []figure {
	const bench = "BenchmarkMangaUpdatesForms"
	return []figure{
		{what: "Mixed-form MangaUpdates pairs linked (labelled real stories, legacy ids via the crosswalk stand-in)", bench: bench, unit: "linked_share", scale: 100, show: "%",
			target: valueAtLeast(100, "%")},
		{what: "The same pairs linked by the rule before issue 44 (forms compared as given, for the record)", bench: bench, unit: "old_share", scale: 100, show: "%"},
		{what: "Labelled stories (each URL id cited in backend/crosswalk/testdata/mu_pairs.tsv)", bench: bench, unit: "stories", scale: 1, show: "stories",
			target: valueAtLeast(50, "stories")},
		{what: "False links on the labelled stories", bench: bench, unit: "false_links", scale: 1, show: "Works",
			target: valueAtMost(0, "Works")},
		{what: "Crosswalk requests per new id", bench: bench, unit: "req/new_id", scale: 1, show: "req",
			target: valueAtMost(1, "req")},
		{what: "Crosswalk requests for an id seen within 7 days", bench: bench, unit: "req/seen_id", scale: 1, show: "req",
			target: valueAtMost(0, "req")},
	}
}
