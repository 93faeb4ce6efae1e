package store_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// One-read requests from many Readers at once share statements; each must
// still get its own answer, as if it ran alone: every forward read moves,
// a tie moves once, and one bad read fails alone.
func TestMergedReadsAnswerEachCaller(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	const readers, reads = 24, 30
	ids := make([]int64, readers)
	for i := range ids {
		r, err := st.UpsertReader(ctx, fmt.Sprintf("4%017d", i), "m", nil)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = r.ID
		for _, sid := range []string{"1", "2", "3"} {
			if _, err := st.AddBookmark(ctx, r.ID, "mangapill", sid, "https://mangapill.com/manga/"+sid); err != nil {
				t.Fatal(err)
			}
		}
	}
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	one := func(rid int64, sid, number string) (store.ReadResult, error) {
		res, err := st.ApplyReads(ctx, []store.Read{{ReaderID: rid, Site: "mangapill", SeriesID: sid,
			SeriesURL: "https://mangapill.com/manga/" + sid, Number: number, ReadAt: at}})
		if err != nil {
			return store.ReadResult{}, err
		}
		return res[0], nil
	}
	for _, rid := range ids { // Series 3 stands at chapter 50
		if _, err := one(rid, "3", "50"); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	var tieMoves, badFailed atomic.Int64
	errs := make(chan error, readers*reads*2)
	for i, rid := range ids {
		wg.Add(4)
		go func() { // older reads of Series 3, alongside the others: none moves
			defer wg.Done()
			for n := 1; n <= reads; n++ {
				res, err := one(rid, "3", fmt.Sprint(n))
				if err != nil {
					errs <- fmt.Errorf("reader %d old read %d: %w", i, n, err)
					return
				}
				if res.Moved {
					errs <- fmt.Errorf("reader %d old read %d moved", i, n)
					return
				}
			}
		}()
		go func() { // forward reads of Series 2, one after another: each moves
			defer wg.Done()
			for n := 1; n <= reads; n++ {
				res, err := one(rid, "2", fmt.Sprint(n))
				if err != nil {
					errs <- fmt.Errorf("reader %d read %d: %w", i, n, err)
					return
				}
				if !res.Moved {
					errs <- fmt.Errorf("reader %d read %d did not move", i, n)
					return
				}
			}
		}()
		go func() { // the same read of Series 1 twice at once: one moves
			defer wg.Done()
			var tie sync.WaitGroup
			for k := 0; k < 2; k++ {
				tie.Add(1)
				go func() {
					defer tie.Done()
					if res, err := one(rid, "1", "1000"); err != nil {
						errs <- err
					} else if res.Moved {
						tieMoves.Add(1)
					}
				}()
			}
			tie.Wait()
		}()
		go func() { // a number PostgreSQL refuses fails alone
			defer wg.Done()
			if _, err := one(rid, "1", "not-a-number"); err != nil {
				badFailed.Add(1)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := tieMoves.Load(); n != readers {
		t.Errorf("%d of %d tied reads moved Progress, want exactly one per Reader", n, readers)
	}
	if n := badFailed.Load(); n != readers {
		t.Errorf("%d of %d bad reads failed, want all", n, readers)
	}
	for i, rid := range ids {
		p1, err1 := st.GetProgress(ctx, rid, "mangapill", "1")
		p2, err2 := st.GetProgress(ctx, rid, "mangapill", "2")
		if err1 != nil || err2 != nil || p1.Number != "1000" || p2.Number != fmt.Sprint(reads) {
			t.Errorf("reader %d: progress %+v %v and %+v %v, want 1000 and %d", i, p1, err1, p2, err2, reads)
		}
	}
}
