package store_test

import (
	"context"
	"flag"
	"os"
	"slices"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// The due query's cost must follow the batch a pass asks for, not the size
// of the table: the 1M case should stay within about 2x of the 10k one, for
// the batch (ns/op) and for the pass's due count (summary_us).
// Half of each Site's Series are due (checked longer than Rest ago).

func BenchmarkDueQuery10k(b *testing.B) { benchDue(b, 10_000) }

// BenchmarkDueQuery1M seeds a million rows, which takes a while; it runs only
// with MB_BENCH_LARGE=1 or an explicit -benchtime.
func BenchmarkDueQuery1M(b *testing.B) {
	if os.Getenv("MB_BENCH_LARGE") != "1" && !benchtimeSet() {
		b.Skip("set MB_BENCH_LARGE=1 (or -benchtime) to seed 1M Series")
	}
	benchDue(b, 1_000_000)
}

func benchtimeSet() bool {
	set := false
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "test.benchtime" {
			set = true
		}
	})
	return set
}

func benchDue(b *testing.B, n int) {
	st := dbtest.New(b)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rest := time.Hour
	// Checked times spread evenly over the last two hours: half are due.
	_, err := st.Pool().Exec(ctx, `
		INSERT INTO series (site, series_id, url, created_at, latest_checked_at)
		SELECT 'mangadex', i::text, 'https://x/' || i, $2::timestamptz - interval '3 days',
			$2::timestamptz - (i * (7200.0 / $1)) * interval '1 second'
		FROM generate_series(1, $1) AS i`, n, now)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `ANALYZE series`); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		got, err := st.DueBatch(ctx, "mangadex", rest, now, 600)
		if err != nil || len(got) != 600 {
			b.Fatalf("due batch: %d %v", len(got), err)
		}
	}
	b.StopTimer()
	// The pass's due count (DueSummary) runs once per pass: report its
	// median over a few runs, and for context the Site's Series count the
	// pass also takes (the effective gap's input).
	sum, summaryUS := medianUS(b, 15, func() (store.DueStats, error) { return st.DueSummary(ctx, "mangadex", rest, now) })
	_, countUS := medianUS(b, 5, func() (int, error) { return st.CountSeries(ctx, "mangadex") })
	b.ReportMetric(summaryUS, "summary_us")
	_, boundedUS := medianUS(b, 5, func() (int, error) { return st.CountSeriesUpTo(ctx, "mangadex", 3601) })
	b.ReportMetric(countUS, "series_count_us")
	b.ReportMetric(boundedUS, "series_count_bounded_us")
	b.ReportMetric(float64(sum.Due), "due")
}

// medianUS runs f runs times and returns its last answer and the median
// wall time in microseconds.
func medianUS[T any](b *testing.B, runs int, f func() (T, error)) (T, float64) {
	b.Helper()
	var last T
	took := make([]time.Duration, runs)
	for i := range took {
		start := time.Now()
		v, err := f()
		if err != nil {
			b.Fatal(err)
		}
		took[i], last = time.Since(start), v
	}
	slices.Sort(took)
	return last, float64(took[runs/2].Microseconds())
}
