package main

// trackerFigures are the tracker sync measures (issue 30, ADR 0027): a
// simulated day of 10 Readers × 500 Series linked to AniList, against the
// local stand-in.
func trackerFigures() []figure {
	const bench = "BenchmarkTrackerDay"
	return []figure{
		{what: "AniList requests a minute, peak (10 Readers × 500 Series, simulated day)", bench: bench, unit: "peak_req/min", scale: 1, show: "req/min",
			target: valueAtMost(25, "req/min")},
		{what: "AniList requests a minute, mean", bench: bench, unit: "mean_req/min", scale: 1, show: "req/min",
			target: valueAtMost(25, "req/min")},
		{what: "AniList writes per read here (coalesced pushes)", bench: bench, unit: "writes/read", scale: 1, show: "writes/read",
			target: valueAtMost(0.2, "writes/read")},
		{what: "Pushes that would lower AniList's count", bench: bench, unit: "lowering_pushes", scale: 1, show: "pushes",
			target: valueAtMost(0, "pushes")},
		{what: "Phone read to Progress moved by the pull (max)", bench: bench, unit: "pull_max_min", scale: 1, show: "min",
			ref: bench, refUnit: "interval_min", refScale: 1, ratioNote: "of the pull interval", target: ratioAtMost(1, "≤ one interval")},
		{what: "Pull now with another Reader's 200 pushes queued: AniList requests until her list", bench: bench, unit: "victim_pull_req", scale: 1, show: "req",
			ref: bench, refUnit: "victim_idle_pull_req", refScale: 1, ratioNote: "of the same pull with nothing queued", target: ratioAtMost(3, "≤ the push in flight")},
		{what: "Pull now with another Reader's 200 pushes queued: time until her list (fake clock)", bench: bench, unit: "victim_pull_s", scale: 1, show: "s",
			ref: bench, refUnit: "queue_drain_s", refScale: 1, ratioNote: "of the time his queue takes", target: ratioAtMost(0.1, "≤ 0.1 of his queue")},
	}
}
