package merge_test

import (
	"context"
	"os"
	"testing"
	"time"

	bp "mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/phonesync/backuppb/backuptest"
	"mangabookmark/backend/phonesync/merge"
	"mangabookmark/backend/store/dbtest"
)

// noMarks is a reads out that marks nothing but, like the real one, is
// handed the whole library at every merge.
type noMarks struct{}

func (noMarks) ReadsOut(_ context.Context, _ int64, b []byte) ([]byte, error) { return b, nil }

// BenchmarkMergeV2 measures the v2 merge on a library of 5,000 manga × 20
// chapters (500 without MB_BENCH_LARGE): the first full merge, a delta of
// one chapter read with no reads out, the same delta with the reads-out
// pass over the whole library (ADR 0029, Consequences), and one more when
// nothing was read elsewhere since (the pass is skipped).
func BenchmarkMergeV2(b *testing.B) {
	manga := 500
	if os.Getenv("MB_BENCH_LARGE") != "" {
		manga = 5000
	}
	ctx := context.Background()
	st := dbtest.New(b)
	c, err := merge.NewCrypt(testTokenKey)
	if err != nil {
		b.Fatal(err)
	}
	msgs := bp.MustLoad()
	lib := backuptest.Build(msgs, randFor(1), backuptest.Library{Manga: manga, Chapters: 20, Categories: 5, Prefix: "b"})
	m := bp.List(lib, "backup_manga")[0]
	delta := bp.New(msgs.Backup)
	dm := cloneMsg(m)
	bp.Clear(dm, "chapters")
	ch := cloneMsg(bp.List(m, "chapters")[19])
	bp.Append(dm, "chapters", ch)
	bp.Append(delta, "backup_manga", dm)

	var full, plain, withReads, checked time.Duration
	for i := 0; b.Loop(); i++ {
		r, err := st.UpsertReader(ctx, "bench-"+time.Now().Format("150405.000000000"), "bench", nil)
		if err != nil {
			b.Fatal(err)
		}
		bare, err := merge.New(st, c, nil)
		if err != nil {
			b.Fatal(err)
		}
		reads, err := merge.New(st, c, noMarks{})
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		a, err := bare.Merge(ctx, merge.Request{Reader: r.ID, Device: "a", Full: true, Backup: lib, RawOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		full += time.Since(t0)
		run := func(eng *merge.Engine, v int64) time.Duration {
			bp.Set(ch, "version", v)
			t := time.Now()
			if _, err := eng.Merge(ctx, merge.Request{Reader: r.ID, Device: "a", Cursor: a.Cursor, Backup: delta, RawOnly: true}); err != nil {
				b.Fatal(err)
			}
			return time.Since(t)
		}
		plain += run(bare, 100)
		withReads += run(reads, 101)
		checked += run(reads, 102) // nothing read elsewhere since: no pass
	}
	n := float64(b.N)
	b.ReportMetric(full.Seconds()/n, "full_merge_s")
	b.ReportMetric(float64(plain.Milliseconds())/n, "delta_ms")
	b.ReportMetric(float64(withReads.Milliseconds())/n, "delta_reads_out_ms")
	b.ReportMetric(float64(checked.Milliseconds())/n, "delta_no_reads_since_ms")
	b.ReportMetric(float64(manga), "manga")
}
