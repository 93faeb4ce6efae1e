// Command benchreport turns the raw output of `go test -bench` runs into the
// benchmark report of docs/benchmarks.md: each figure beside the reference
// measured in the same run, as a ratio, and the target it is held to.
//
// Usage: benchreport -in docs/benchmarks.raw.txt -out docs/benchmarks.md
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// result is one benchmark line: its metrics by unit.
type result map[string]float64

func main() {
	in := flag.String("in", "", "raw go test -bench output (default stdin)")
	out := flag.String("out", "", "markdown report to write (default stdout only)")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

// run reads the raw output from in (stdin when empty), prints the report
// and writes it to out when set.
func run(in, out string) error {
	var r io.Reader = os.Stdin
	if in != "" {
		f, err := os.Open(in)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	res, err := parse(r)
	if err != nil {
		return err
	}
	report := render(res, time.Now())
	fmt.Print(report)
	if out != "" {
		return os.WriteFile(out, []byte(report), 0o644)
	}
	return nil
}

// parse reads benchmark lines ("BenchmarkX-2  10  123 ns/op  4.5 p99_ms")
// keyed by name without the GOMAXPROCS suffix. A later line of the same
// name replaces an earlier one.
func parse(r io.Reader) (map[string]result, error) {
	out := map[string]result{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := f[0]
		if i := strings.LastIndex(name, "-"); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		m := result{}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				break
			}
			m[f[i+1]] = v
		}
		out[name] = m
	}
	return out, sc.Err()
}

// figure is one line of the report.
type figure struct {
	what      string
	bench     string
	unit      string
	scale     float64 // multiply the metric for display
	show      string  // displayed unit
	ref       string  // reference benchmark ("" = none)
	refUnit   string
	refScale  float64
	target    goal
	ratioNote string
}

// goal is the target a figure is held to: its text, and its check on the
// value (in the displayed unit) and on the ratio to the reference.
type goal struct {
	text string
	ok   func(v, ratio float64) bool
}

// valueBelow holds the displayed value under limit.
func valueBelow(limit float64, unit string) goal {
	return goal{fmt.Sprintf("< %g %s", limit, unit), func(v, _ float64) bool { return v < limit }}
}

// ratioAtMost holds the ratio to the reference at or under limit.
func ratioAtMost(limit float64, text string) goal {
	return goal{text, func(_, r float64) bool { return r <= limit }}
}

// ratioAtLeast holds the ratio to the reference at or over limit.
func ratioAtLeast(limit float64) goal {
	return goal{fmt.Sprintf("ratio ≥ %g", limit), func(_, r float64) bool { return r >= limit }}
}

func render(res map[string]result, now time.Time) string {
	figs := []figure{
		{what: "Lane per-Poll overhead (stamp, fetch, parse, write)", bench: "BenchmarkLanePoll", unit: "ns/poll", scale: 1e-6, show: "ms",
			ref: "BenchmarkBareGetParse", refUnit: "ns/poll", refScale: 1e-6, ratioNote: "Lane / bare GET+parse"},
		{what: "Bookmark to first read, idle plain Lane", bench: "BenchmarkBookmarkToFirstRead", unit: "first_read_ms", scale: 1, show: "ms",
			ref: "BenchmarkBookmarkToFirstRead", refUnit: "gap_ms", refScale: 1, ratioNote: "of one effective gap", target: ratioAtMost(1, "≤ one gap")},
		{what: "Forced Poll answered (read done), idle plain Lane", bench: "BenchmarkForcedPollPlain", unit: "forced_ms", scale: 1, show: "ms",
			ref: "BenchmarkForcedPollPlain", refUnit: "budget_ms", refScale: 1, ratioNote: "of one gap + the read", target: ratioAtMost(1, "≤ gap + read")},
		{what: "Forced Poll answered (read done), idle browser Lane", bench: "BenchmarkForcedPollBrowser", unit: "forced_ms", scale: 1, show: "ms",
			ref: "BenchmarkForcedPollBrowser", refUnit: "budget_ms", refScale: 1, ratioNote: "of one gap + the read", target: ratioAtMost(1, "≤ gap + read")},
		{what: "Lane pace fidelity, simulated hour (median read interval / effective gap)", bench: "BenchmarkPaceFidelity", unit: "pace_ratio", scale: 1, show: "× gap",
			target: goal{"1.00 ± 0.02", func(v, _ float64) bool { return v >= 0.98 && v <= 1.02 }}},
		{what: "Lane pace fidelity, clock ×120 wall speed (load included)", bench: "BenchmarkPaceFidelityScaled", unit: "pace_ratio", scale: 1, show: "× gap",
			ref: "BenchmarkPaceFidelityScaled", refUnit: "pace_p90_ratio", refScale: 1, ratioNote: "median / p90"},
		{what: "Due query at 1M Series (batch)", bench: "BenchmarkDueQuery1M", unit: "ns/op", scale: 1e-6, show: "ms",
			ref: "BenchmarkDueQuery10k", refUnit: "ns/op", refScale: 1e-6, ratioNote: "1M / 10k", target: ratioAtMost(2, "ratio ≤ 2")},
		{what: "Due count of a pass (half the Series due) at 1M Series", bench: "BenchmarkDueQuery1M", unit: "summary_us", scale: 1e-3, show: "ms",
			ref: "BenchmarkDueQuery10k", refUnit: "summary_us", refScale: 1e-3, ratioNote: "1M / 10k, once per pass", target: ratioAtMost(2, "ratio ≤ 2")},
		{what: "Progress sync through the API (50 clients)", bench: "BenchmarkProgressRatio", unit: "api_reads/s", scale: 1, show: "reads/s",
			ref: "BenchmarkProgressRatio", refUnit: "raw_reads/s", refScale: 1, ratioNote: "API / raw PostgreSQL", target: ratioAtLeast(0.8)},
		{what: "Progress sync p99 (API, 50 clients)", bench: "BenchmarkProgressRatio", unit: "api_p99_ms", scale: 1, show: "ms",
			ref: "BenchmarkProgressRatio", refUnit: "raw_p99_ms", refScale: 1, ratioNote: "API / raw"},
		{what: "GET /api/admin/lanes p99 at 1M Series", bench: "BenchmarkAdminLanes1M//api/admin/lanes", unit: "p99_ms", scale: 1, show: "ms",
			ref: "BenchmarkAdmin10k//api/admin/lanes", refUnit: "p99_ms", refScale: 1, ratioNote: "1M / 10k", target: valueBelow(50, "ms")},
		{what: "GET /api/admin/failing p99 at 1M Series, 100k failing", bench: "BenchmarkAdminFailing//api/admin/failing", unit: "p99_ms", scale: 1, show: "ms",
			ref: "BenchmarkAdmin10k//api/admin/failing", refUnit: "p99_ms", refScale: 1, ratioNote: "1M / 10k", target: valueBelow(50, "ms")},
		{what: "Library page p99, 2000 bookmarks (server time)", bench: "BenchmarkWebLibrary2000/page", unit: "p99_ms", scale: 1, show: "ms",
			ref: "BenchmarkWebLibrary2000/json", refUnit: "p99_ms", refScale: 1, ratioNote: "page / GET /api/bookmarks", target: valueBelow(50, "ms")},
		{what: "Library page CPU per request, 2000 bookmarks (Go process)", bench: "BenchmarkWebLibrary2000/page", unit: "cpu_ms/op", scale: 1, show: "ms",
			ref: "BenchmarkWebLibrary2000/json", refUnit: "cpu_ms/op", refScale: 1, ratioNote: "page / GET /api/bookmarks"},
		{what: "Library page p99, 2000 bookmarks, two thirds in two-Site Works (1,333 cards)", bench: "BenchmarkWebLibrary2000Works/page", unit: "p99_ms", scale: 1, show: "ms",
			ref: "BenchmarkWebLibrary2000Works/json", refUnit: "p99_ms", refScale: 1, ratioNote: "page / GET /api/bookmarks", target: valueBelow(50, "ms")},
		{what: "Library HTML per card, first page (60 cards)", bench: "BenchmarkWebLibrary2000/page", unit: "card_bytes", scale: 1, show: "B",
			target: goal{"≤ 1.5 KB", func(v, _ float64) bool { return v <= 1500 }}},
		{what: "Library HTML per two-chip Work card", bench: "BenchmarkWebLibrary2000Works/page", unit: "work_card_bytes", scale: 1, show: "B",
			target: goal{"≤ 1.5 KB", func(v, _ float64) bool { return v <= 1500 }}},
		{what: "/admin page p99 at 1M Series, 100k failing (server time)", bench: "BenchmarkWebAdmin1M/admin", unit: "p99_ms", scale: 1, show: "ms",
			ref: "BenchmarkWebAdmin1M/api_lanes", refUnit: "p99_ms", refScale: 1, ratioNote: "page / GET /api/admin/lanes", target: valueBelow(50, "ms")},
		{what: "/admin/failing page p99 at 1M Series, 100k failing", bench: "BenchmarkWebAdmin1M/failing", unit: "p99_ms", scale: 1, show: "ms",
			ref: "BenchmarkWebAdmin1M/api_failing", refUnit: "p99_ms", refScale: 1, ratioNote: "page / GET /api/admin/failing?limit=200", target: valueBelow(50, "ms")},
		{what: "/admin/lanes/{site} page p99 at 1M Series", bench: "BenchmarkWebAdmin1M/lane", unit: "p99_ms", scale: 1, show: "ms",
			ref: "BenchmarkWebAdmin1M/api_lanes", refUnit: "p99_ms", refScale: 1, ratioNote: "page / GET /api/admin/lanes"},
		{what: "Browser reads through one tab", bench: "BenchmarkBrowserRead", unit: "reads/min", scale: 1, show: "reads/min",
			ref: "BenchmarkReadPlain/kagane", refUnit: "ns/op", refScale: 0, ratioNote: "browser / plain route, same Site"},
		{what: "Import of a 5,000-entry .tachibk, parse + plan (no Site reads)", bench: "BenchmarkImportPlan5000", unit: "ns/op", scale: 1e-6, show: "ms",
			ref: "BenchmarkImportWalk5000", refUnit: "ns/op", refScale: 1e-6, ratioNote: "import / bare gunzip + protowire walk"},
		{what: "Import of a 5,000-entry .tachibk, peak RSS of the process", bench: "BenchmarkImportPlan5000", unit: "peak_rss_MB", scale: 1, show: "MB",
			ref: "BenchmarkImportWalk5000", refUnit: "peak_rss_MB", refScale: 1, ratioNote: "streamed import / walk of the whole inflated file"},
		{what: "Dashboard frame, 10k-row worklist", bench: "BenchmarkWorklistRender10k", unit: "ns/op", scale: 1e-6, show: "ms",
			target: valueBelow(10, "ms")},
		{what: "One New Chapter on a Series 1,000 Readers bookmark (event + 1,000 owed notices, one statement)", bench: "BenchmarkNewChapterFanout/readers=1000", unit: "ns/op", scale: 1e-6, show: "ms",
			ref: "BenchmarkNewChapterFanout/readers=1", refUnit: "ns/op", refScale: 1e-6, ratioNote: "1,000 Readers / 1 Reader"},
		{what: "10,000 owed notices drained through a local webhook", bench: "BenchmarkNoticeDrain/drain", unit: "notices/s", scale: 1, show: "notices/s",
			ref: "BenchmarkNoticeDrain/bare_post", refUnit: "notices/s", refScale: 1, ratioNote: "drain / bare POSTs, same client"},
		{what: "Chapter Event seen to Digest received, digest_s 0 (p99)", bench: "BenchmarkNoticeLatency", unit: "p99_ms", scale: 1, show: "ms",
			ref: "BenchmarkNoticeLatency", refUnit: "target_ms", refScale: 1, ratioNote: "of the 5 s target", target: ratioAtMost(1, "≤ 5 s")},
		{what: "Backend resident memory, idle, 100k Series", bench: "BenchmarkResidentMemory", unit: "idle_rss_MB", scale: 1, show: "MB",
			target: valueBelow(80, "MB")},
		{what: "Backend resident memory, polling, 100k Series", bench: "BenchmarkResidentMemory", unit: "polling_rss_MB", scale: 1, show: "MB",
			ref: "BenchmarkResidentMemory", refUnit: "idle_rss_MB", refScale: 1, ratioNote: "polling / idle", target: valueBelow(80, "MB")},
	}
	figs = append(figs, listingFigures()...)
	figs = append(figs, trackerFigures()...)
	figs = append(figs, phoneSyncFigures()...)
	figs = append(figs, worksFigures()...)
	figs = append(figs, idFigures()...)
	figs = append(figs, syncV2Figures()...)
	figs = append(figs, releaseFigures()...)
	figs = append(figs, statusFigures()...)
	figs = append(figs, timelineFigures()...)
	figs = append(figs, updatesFigures()...)
	var b strings.Builder
	fmt.Fprintf(&b, "# Benchmarks\n\nMeasured by `make bench` on %s, %d cores (%s/%s), %s.\n",
		now.UTC().Format("2006-01-02"), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
	b.WriteString("Each figure stands beside a reference measured in the same run; the raw output is in `docs/benchmarks.raw.txt` when kept.\n\n")
	b.WriteString("| figure | value | reference | ratio | target |\n|---|---|---|---|---|\n")
	for _, f := range figs {
		m, ok := res[f.bench]
		v, ok2 := m[f.unit]
		if !ok || !ok2 {
			fmt.Fprintf(&b, "| %s | not measured | | | %s |\n", f.what, f.target.text)
			continue
		}
		val := v * f.scale
		refCell, ratioCell, ratio := "", "", 0.0
		if f.ref != "" {
			if rm, ok := res[f.ref]; ok {
				if rv, ok := rm[f.refUnit]; ok && rv > 0 {
					if f.refScale == 0 { // ns/op of one read -> reads/min
						rv = 60e9 / rv
						refCell = fmt.Sprintf("%.0f reads/min (plain)", rv)
					} else {
						rv *= f.refScale
						refCell = fmt.Sprintf("%s %s", num(rv), f.show)
					}
					ratio = val / rv
					ratioCell = fmt.Sprintf("%.2f (%s)", ratio, f.ratioNote)
				}
			}
		}
		target := f.target.text
		if f.target.ok != nil {
			if f.target.ok(val, ratio) {
				target += " ✓"
			} else {
				target += " ✗"
			}
		}
		fmt.Fprintf(&b, "| %s | %s %s | %s | %s | %s |\n", f.what, num(val), f.show, refCell, ratioCell, target)
	}
	b.WriteString("\nTimings on a 2-core machine shared with other work are noisy; compare ratios more than absolute times.\n")
	return b.String()
}

func num(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}
