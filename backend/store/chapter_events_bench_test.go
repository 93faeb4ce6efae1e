package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// BenchmarkNewChapterFanout is one New Chapter read on a Series bookmarked
// by 1,000 Readers: the Latest Chapter write, its Chapter Event and the
// 1,000 owed notices in one statement. readers=1 is the reference: the same
// read with one bookmark.
func BenchmarkNewChapterFanout(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("readers=%d", n), func(b *testing.B) { benchFanout(b, n) })
	}
}

func benchFanout(b *testing.B, readers int) {
	st := dbtest.New(b)
	ctx := context.Background()
	seed := []string{
		`INSERT INTO series (site, series_id, url) VALUES ('mangapill', 's', 'https://mangapill.com/manga/s')`,
		fmt.Sprintf(`INSERT INTO readers (discord_id) SELECT 'r' || g FROM generate_series(1, %d) g`, readers),
		`INSERT INTO bookmarks (reader_id, site, series_id, created_at) SELECT id, 'mangapill', 's', now() - interval '1 day' FROM readers`,
	}
	for _, q := range seed {
		if _, err := st.Pool().Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	now := time.Now()
	if _, err := st.RecordOK(ctx, "mangapill", "s", store.ReadFacts{Number: "0"}, now); err != nil {
		b.Fatal(err)
	}
	owed := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := st.RecordOK(ctx, "mangapill", "s", store.ReadFacts{Number: fmt.Sprint(i + 1), ChURL: "https://mangapill.com/chapters/s-" + fmt.Sprint(i+1)}, now.Add(time.Duration(i+1)*time.Millisecond))
		if err != nil {
			b.Fatal(err)
		}
		owed += r.Owed
	}
	b.StopTimer()
	if owed != b.N*readers {
		b.Fatalf("owed %d notices, want %d", owed, b.N*readers)
	}
	b.ReportMetric(float64(owed)/float64(b.N), "owed/op")
}
