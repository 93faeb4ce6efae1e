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

// A Reader controls how many requests it sends at once and what one
// request holds. Neither parallel requests nor one Series named many times
// in a request may get more new Series than the hour's allowance
// (docs/adr/0010-fair-due-order-and-reader-limits.md).

func TestReaderLimitsHoldUnderParallelRequests(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 20, MaxBookmarks: 5000})
	ctx := context.Background()
	r, err := st.UpsertReader(ctx, "31", "Flood", nil)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	const requests, perRequest = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, requests)
	refused := make(chan int, requests)
	for q := 0; q < requests; q++ {
		wg.Add(1)
		go func(q int) {
			defer wg.Done()
			reads := make([]store.Read, perRequest)
			for i := range reads {
				id := fmt.Sprint(700000 + q*perRequest + i)
				reads[i] = store.Read{ReaderID: r.ID, Site: "mangapill", SeriesID: id,
					SeriesURL: "https://mangapill.com/manga/" + id, Number: "1", URL: "u", ReadAt: at}
			}
			res, err := st.ApplyReads(ctx, reads)
			if err != nil {
				errs <- err
				return
			}
			n := 0
			for _, x := range res {
				if x.Refused != nil {
					if !errors.Is(x.Refused, store.ErrNewSeriesLimit) {
						errs <- fmt.Errorf("refused with %w, want ErrNewSeriesLimit", x.Refused)
						return
					}
					n++
				}
			}
			refused <- n
		}(q)
	}
	wg.Wait()
	close(errs)
	close(refused)
	for err := range errs {
		t.Fatal(err)
	}
	total := 0
	for n := range refused {
		total += n
	}
	var series int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM series WHERE created_by = $1`, r.ID).Scan(&series); err != nil {
		t.Fatal(err)
	}
	// 20 an hour; one more may have refilled if the test ran slow.
	if series < 20 || series > 21 {
		t.Fatalf("%d Series created by %d parallel requests of %d new ids, want the allowance of 20", series, requests, perRequest)
	}
	if series+total != requests*perRequest {
		t.Fatalf("%d created + %d refused, want %d in all", series, total, requests*perRequest)
	}
}

func TestReaderLimitsChargeARepeatedSeriesOnce(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 2, MaxBookmarks: 5000})
	ctx := context.Background()
	r, err := st.UpsertReader(ctx, "32", "Repeat", nil)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	rd := func(id, n string) store.Read {
		return store.Read{ReaderID: r.ID, Site: "mangapill", SeriesID: id,
			SeriesURL: "https://mangapill.com/manga/" + id, Number: n, URL: "u" + n, ReadAt: at}
	}
	// One new Series named 50 times, chapters 1..50, then a second new one.
	reads := make([]store.Read, 0, 51)
	for i := 1; i <= 50; i++ {
		reads = append(reads, rd("800", fmt.Sprint(i)))
	}
	reads = append(reads, rd("801", "3"))
	res, err := st.ApplyReads(ctx, reads)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range res {
		if x.Refused != nil || !x.Moved {
			t.Fatalf("read %d: %+v, want applied and moved (the repeated Series costs one)", i, x)
		}
	}
	if p, err := st.GetProgress(ctx, r.ID, "mangapill", "800"); err != nil || p.Number != "50" {
		t.Fatalf("Progress of the repeated Series: %+v %v, want 50 (reads applied in order)", p, err)
	}
	// The allowance of 2 is spent: a third new Series is refused.
	res, err = st.ApplyReads(ctx, []store.Read{rd("802", "1")})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res[0].Refused, store.ErrNewSeriesLimit) {
		t.Fatalf("a third new Series: %+v, want ErrNewSeriesLimit", res[0])
	}
}
