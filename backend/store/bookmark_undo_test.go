package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// A Series two Readers removed stays while either hold stands, and goes
// when the last ends; an Undo after the other Reader's hold ended still
// finds it.
func TestUndoHoldsKeepTheSeries(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	var readers []int64
	for i := 0; i < 2; i++ {
		r, err := st.UpsertReader(ctx, fmt.Sprint(i+10), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		readers = append(readers, r.ID)
		if _, err := st.AddBookmark(ctx, r.ID, "mangapill", "9", "https://mangapill.com/manga/9"); err != nil {
			t.Fatal(err)
		}
	}
	key := []store.BookmarkKey{{Site: "mangapill", SeriesID: "9"}}
	a, err := st.RemoveBookmarksHeld(ctx, readers[0], key, now, now.Add(10*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.RemoveBookmarksHeld(ctx, readers[1], key, now, now.Add(20*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RemoveBookmarksHeld(ctx, readers[1], key, now, now.Add(20*time.Minute)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a second Remove of a removed bookmark: %v", err)
	}
	if err := st.ReleaseExpiredHolds(ctx, now.Add(15*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetSeries(ctx, "mangapill", "9"); err != nil {
		t.Fatalf("the Series went while Reader 2's hold stands: %v", err)
	}
	if _, err := st.UndoRemove(ctx, readers[0], a, now.Add(15*time.Minute)); !errors.Is(err, store.ErrUndoGone) {
		t.Fatalf("an Undo of a released hold: %v", err)
	}
	if err := st.ReleaseExpiredHolds(ctx, now.Add(25*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetSeries(ctx, "mangapill", "9"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the Series stayed after the last hold: %v", err)
	}
}

// Readers removing and undoing the same Series at once, in different
// orders, never see an error and end with every bookmark back.
func TestConcurrentRemoveAndUndo(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	const readers = 5
	series := []string{"1", "2", "3"}
	ids := make([]int64, readers)
	for i := range ids {
		r, err := st.UpsertReader(ctx, fmt.Sprint(i+10), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = r.ID
		for _, s := range series {
			if _, err := st.AddBookmark(ctx, r.ID, "mangapill", s, "https://mangapill.com/manga/"+s); err != nil {
				t.Fatal(err)
			}
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, readers)
	for i, rid := range ids {
		wg.Add(1)
		go func(i int, rid int64) {
			defer wg.Done()
			for n := 0; n < 10; n++ {
				var keys []store.BookmarkKey
				for j := range series {
					keys = append(keys, store.BookmarkKey{Site: "mangapill", SeriesID: series[(i+j+n)%len(series)]})
				}
				tok, err := st.RemoveBookmarksHeld(ctx, rid, keys, now, now.Add(10*time.Minute))
				if err != nil {
					errs <- err
					return
				}
				back, err := st.UndoRemove(ctx, rid, tok, now)
				if err != nil || len(back) != len(series) {
					errs <- fmt.Errorf("undo: %d back, %w", len(back), err)
					return
				}
			}
		}(i, rid)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var n int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM bookmarks`).Scan(&n); err != nil || n != readers*len(series) {
		t.Fatalf("%d bookmarks after the churn, want %d (%v)", n, readers*len(series), err)
	}
}
