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

// Readers adding, reading and removing the same Series at once never see
// an error: a Series removed as an orphan under a concurrent add or read is
// recreated.
func TestConcurrentBookmarkChurn(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	const readers = 6
	ids := make([]int64, readers)
	for i := range ids {
		r, err := st.UpsertReader(ctx, fmt.Sprint(i+10), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = r.ID
	}
	var wg sync.WaitGroup
	errs := make(chan error, readers)
	for i := range ids {
		wg.Add(1)
		go func(rid int64) {
			defer wg.Done()
			for n := 1; n <= 25; n++ {
				if _, err := st.AddBookmark(ctx, rid, "mangapill", "9", "https://mangapill.com/manga/9"); err != nil {
					errs <- err
					return
				}
				read := store.Read{ReaderID: rid, Site: "mangapill", SeriesID: "9", SeriesURL: "https://mangapill.com/manga/9",
					Number: fmt.Sprint(n), ReadAt: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)}
				if _, err := st.ApplyReads(ctx, []store.Read{read}); err != nil {
					errs <- err
					return
				}
				if err := st.RemoveBookmark(ctx, rid, "mangapill", "9"); err != nil {
					errs <- err
					return
				}
			}
		}(ids[i])
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var n int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM bookmarks`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("bookmarks left: %d %v", n, err)
	}
}
