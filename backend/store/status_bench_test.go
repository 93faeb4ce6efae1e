package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// BenchmarkStatusNotices drives 50 two-member Works and 50 lone Series,
// each followed by 40 Readers (a quarter of the Work Readers bookmarking
// both members), through releasing → hiatus → releasing → completed, each
// status read three times on every member, the two members of a Work by
// two goroutines at once (two Lanes). It reports the status lines owed
// per (Reader, story, change): the measure is exactly 1, both as
// the most (max_per_change) and as the total over the Readers times the
// changes (per_change).
func BenchmarkStatusNotices(b *testing.B) {
	for range b.N {
		benchStatusNotices(b)
	}
}

func benchStatusNotices(b *testing.B) {
	b.StopTimer()
	st := dbtest.New(b)
	ctx := context.Background()
	const stories, readers = 50, 40
	seed := []string{
		fmt.Sprintf(`INSERT INTO series (site, series_id, url) SELECT s, 'w' || g, 'https://' || s || '.example/w' || g
			FROM generate_series(1, %d) g, unnest(ARRAY['mangadex', 'comix']) s`, stories),
		fmt.Sprintf(`INSERT INTO series (site, series_id, url) SELECT 'mangapill', 'l' || g, 'https://mangapill.example/l' || g
			FROM generate_series(1, %d) g`, stories),
		fmt.Sprintf(`INSERT INTO works (id) SELECT g FROM generate_series(1, %d) g`, stories),
		`INSERT INTO work_members (site, series_id, work_id, linked_by)
			SELECT s.site, s.series_id, substr(s.series_id, 2)::bigint, 'id:al' FROM series s WHERE s.site <> 'mangapill'`,
		fmt.Sprintf(`INSERT INTO readers (discord_id) SELECT 'r' || g FROM generate_series(1, %d) g`, readers),
		`INSERT INTO bookmarks (reader_id, site, series_id, created_at)
			SELECT r.id, s.site, s.series_id, now() - interval '1 day' FROM readers r, series s
			WHERE s.site <> 'comix' OR r.id % 4 = 0`,
	}
	for _, q := range seed {
		if _, err := st.Pool().Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	now := time.Now()
	n := 0
	read := func(site, id, status string) {
		n++
		f := store.ReadFacts{Number: "10", Status: status}
		if status == store.StatusCompleted {
			f.FinalChapter = "10"
		}
		if _, err := st.RecordOK(ctx, site, id, f, now.Add(time.Duration(n)*time.Millisecond)); err != nil {
			b.Error(err)
		}
	}
	b.StartTimer()
	for _, status := range []string{store.StatusReleasing, store.StatusHiatus, store.StatusReleasing, store.StatusCompleted} {
		for g := 1; g <= stories; g++ {
			var wg sync.WaitGroup
			for _, site := range []string{"mangadex", "comix"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range 3 {
						read(site, fmt.Sprintf("w%d", g), status)
					}
				}()
			}
			wg.Wait()
			for range 3 {
				read("mangapill", fmt.Sprintf("l%d", g), status)
			}
		}
	}
	b.StopTimer()
	var total, most, changes int
	err := st.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM reader_status_notices),
		coalesce((SELECT max(c) FROM (SELECT count(*) AS c FROM reader_status_notices n JOIN status_changes x ON x.id = n.change_id
			GROUP BY n.reader_id, coalesce(x.work_id::text, x.site || '/' || x.series_id), x.was, x.status) y), 0),
		(SELECT count(*) FROM status_changes)`).Scan(&total, &most, &changes)
	if err != nil {
		b.Fatal(err)
	}
	// Three changes (hiatus, releasing again, completed) per story, each
	// owed to each of its readers Readers.
	want := 3 * 2 * stories * readers
	b.ReportMetric(float64(most), "max_per_change")
	b.ReportMetric(float64(total)/float64(want), "per_change")
	b.ReportMetric(float64(changes), "changes")
}
