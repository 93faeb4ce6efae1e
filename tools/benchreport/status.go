package main

// statusFigures are the status notice measures (issue 45, ADR 0031): 50
// two-member Works and 50 lone Series, 40 Readers each, through three
// changes with every status read three times on every member, two
// members at once.
func statusFigures() []figure {
	const bench = "BenchmarkStatusNotices"
	return []figure{
		{what: "Status lines per (Reader, story, change), the most", bench: bench, unit: "max_per_change", scale: 1, show: "lines",
			target: goal{"exactly 1", func(v, _ float64) bool { return v == 1 }}},
		{what: "Status lines owed / (Readers × changes)", bench: bench, unit: "per_change", scale: 1, show: "lines",
			target: goal{"exactly 1", func(v, _ float64) bool { return v == 1 }}},
	}
}
