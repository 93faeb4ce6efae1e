package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

var noticeT0 = time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)

type passRow struct {
	site                                   string
	at                                     time.Time
	due, checked, ok, noChapter, refused   int
	unreachable, notFound, unfetchableRead int
	skip                                   string
}

func insertPass(t *testing.T, st *store.Store, p passRow) {
	t.Helper()
	_, err := st.Pool().Exec(context.Background(), `INSERT INTO poll_passes
		(site, started_at, finished_at, due, checked, ok, no_chapter, refused, unreachable, not_found, unfetchable, skip)
		VALUES ($1, $2, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		p.site, p.at, p.due, p.checked, p.ok, p.noChapter, p.refused, p.unreachable, p.notFound, p.unfetchableRead, p.skip)
	if err != nil {
		t.Fatal(err)
	}
}

func TestNoticeRowLifecycle(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	created, err := st.OpenNotice(ctx, "stall", "mangapill", noticeT0)
	if err != nil || !created {
		t.Fatalf("open: created=%v err=%v", created, err)
	}
	created, err = st.OpenNotice(ctx, "stall", "mangapill", noticeT0.Add(time.Hour))
	if err != nil || created {
		t.Fatalf("second open: created=%v err=%v", created, err)
	}
	boom := errors.New("boom")
	sent, err := st.NotifyNotice(ctx, "stall", "mangapill", noticeT0, func(context.Context) error { return boom })
	if sent || !errors.Is(err, boom) {
		t.Fatalf("failing send: sent=%v err=%v", sent, err)
	}
	list, err := st.ListNotices(ctx)
	if err != nil || len(list) != 1 || list[0].NotifiedAt != nil || !list[0].OpenedAt.Equal(noticeT0) {
		t.Fatalf("after failed send: %+v err=%v", list, err)
	}
	calls := 0
	send := func(context.Context) error { calls++; return nil }
	for i := 0; i < 2; i++ {
		if _, err := st.NotifyNotice(ctx, "stall", "mangapill", noticeT0.Add(time.Minute), send); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 1 {
		t.Fatalf("send called %d times, want 1", calls)
	}
	list, _ = st.ListNotices(ctx)
	if len(list) != 1 || list[0].NotifiedAt == nil || !list[0].NotifiedAt.Equal(noticeT0.Add(time.Minute)) {
		t.Fatalf("after send: %+v", list)
	}
	if gone, err := st.CloseNotice(ctx, "stall", "mangapill"); err != nil || !gone {
		t.Fatalf("close: %v %v", gone, err)
	}
	if gone, err := st.CloseNotice(ctx, "stall", "mangapill"); err != nil || gone {
		t.Fatalf("second close: %v %v", gone, err)
	}
	if sent, err := st.NotifyNotice(ctx, "stall", "mangapill", noticeT0, send); sent || err != nil {
		t.Fatalf("notify without row: %v %v", sent, err)
	}
}

func TestNotifyNoticeLockedRowStaysQuiet(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	if _, err := st.OpenNotice(ctx, "sidecar-down", "", noticeT0); err != nil {
		t.Fatal(err)
	}
	inSend, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sent, err := st.NotifyNotice(ctx, "sidecar-down", "", noticeT0, func(context.Context) error {
			close(inSend)
			<-release // hold the row lock while another Lane tries
			return nil
		})
		if !sent || err != nil {
			t.Errorf("holder: sent=%v err=%v", sent, err)
		}
	}()
	<-inSend
	var other atomic.Int32
	sent, err := st.NotifyNotice(ctx, "sidecar-down", "", noticeT0, func(context.Context) error {
		other.Add(1)
		return nil
	})
	close(release)
	wg.Wait()
	if sent || err != nil || other.Load() != 0 {
		t.Fatalf("second Lane: sent=%v err=%v calls=%d", sent, err, other.Load())
	}
	list, _ := st.ListNotices(ctx)
	if len(list) != 1 || list[0].NotifiedAt == nil {
		t.Fatalf("after: %+v", list)
	}
}

func TestNoticeStallRun(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	r, err := st.NoticeStallRun(ctx, "mangapill")
	if err != nil || r.HasPasses || r.Passes != 0 || r.Since != nil {
		t.Fatalf("empty: %+v %v", r, err)
	}
	h := func(n int) time.Time { return noticeT0.Add(time.Duration(n) * time.Hour) }
	insertPass(t, st, passRow{site: "mangapill", at: h(0), due: 3, checked: 3, ok: 3})
	insertPass(t, st, passRow{site: "mangapill", at: h(1), due: 5})
	insertPass(t, st, passRow{site: "mangapill", at: h(2), skip: "paused"})
	insertPass(t, st, passRow{site: "mangapill", at: h(3), due: 7})
	insertPass(t, st, passRow{site: "other", at: h(4), due: 1, checked: 1, ok: 1})
	r, err = st.NoticeStallRun(ctx, "mangapill")
	if err != nil || r.Passes != 2 || r.Since == nil || !r.Since.Equal(h(1)) || r.Due != 7 || r.LastSkip != "" {
		t.Fatalf("run: %+v %v", r, err)
	}
	// A refused or unreachable read makes the pass no stall.
	insertPass(t, st, passRow{site: "mangapill", at: h(5), due: 7, refused: 2})
	insertPass(t, st, passRow{site: "mangapill", at: h(6), due: 7})
	r, _ = st.NoticeStallRun(ctx, "mangapill")
	if r.Passes != 1 || !r.Since.Equal(h(6)) {
		t.Fatalf("after refused pass: %+v", r)
	}
	insertPass(t, st, passRow{site: "mangapill", at: h(7), skip: "paused"})
	r, _ = st.NoticeStallRun(ctx, "mangapill")
	if r.LastSkip != "paused" || r.Passes != 1 {
		t.Fatalf("paused last: %+v", r)
	}
}

func TestNoticeRefusalRun(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	h := func(n int) time.Time { return noticeT0.Add(time.Duration(n) * time.Hour) }
	insertPass(t, st, passRow{site: "mangadex", at: h(0), due: 2, checked: 2, ok: 1, refused: 1})
	insertPass(t, st, passRow{site: "mangadex", at: h(1), due: 4, refused: 2})
	insertPass(t, st, passRow{site: "mangadex", at: h(2), skip: "refusing"})
	insertPass(t, st, passRow{site: "mangadex", at: h(3)}) // nothing due: neutral
	insertPass(t, st, passRow{site: "mangadex", at: h(4), due: 4, refused: 2})
	if _, err := st.Pool().Exec(ctx, `INSERT INTO poll_lanes (site, refuse_until) VALUES ('mangadex', $1)`, h(5)); err != nil {
		t.Fatal(err)
	}
	r, err := st.NoticeRefusalRun(ctx, "mangadex")
	if err != nil || r.Passes != 3 || !r.Since.Equal(h(1)) || !r.Last.Equal(h(4)) || r.RefuseUntil == nil || !r.RefuseUntil.Equal(h(5)) {
		t.Fatalf("run: %+v %v", r, err)
	}
	insertPass(t, st, passRow{site: "mangadex", at: h(5), due: 1, checked: 1, notFound: 1})
	r, _ = st.NoticeRefusalRun(ctx, "mangadex")
	if r.Passes != 0 || r.Since != nil {
		t.Fatalf("after an answer: %+v", r)
	}
}

func TestNoticeSidecarRun(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	browser := []string{"kagane", "comix"}
	h := func(n int) time.Time { return noticeT0.Add(time.Duration(n) * time.Hour) }
	insertPass(t, st, passRow{site: "kagane", at: h(0), due: 1, checked: 1, refused: 1})           // reached
	insertPass(t, st, passRow{site: "comix", at: h(1), due: 3, checked: 1, ok: 1, unreachable: 2}) // reached, then lost
	insertPass(t, st, passRow{site: "kagane", at: h(2), due: 3, unreachable: 1})                   // missed
	insertPass(t, st, passRow{site: "comix", at: h(3), skip: "asleep"})                            // neutral
	insertPass(t, st, passRow{site: "comix", at: h(4), skip: "browser_down"})                      // missed
	insertPass(t, st, passRow{site: "mangadex", at: h(5), skip: "browser_down"})                   // not a browser Site
	r, err := st.NoticeSidecarRun(ctx, browser)
	if err != nil || r.Passes != 2 || !r.Since.Equal(h(2)) || !r.Last.Equal(h(4)) || r.Series != 0 {
		t.Fatalf("run: %+v %v", r, err)
	}
	if _, err := st.EnsureSeries(ctx, "comix", "a", "https://comix.example/a"); err != nil {
		t.Fatal(err)
	}
	insertPass(t, st, passRow{site: "kagane", at: h(6), due: 1, checked: 1, ok: 1})
	r, _ = st.NoticeSidecarRun(ctx, browser)
	if r.Passes != 0 || r.Series != 1 {
		t.Fatalf("after a reach: %+v", r)
	}
}

func TestNoticeFailureShare(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	h := func(n int) time.Time { return noticeT0.Add(time.Duration(n) * time.Hour) }
	r, err := st.NoticeFailureShare(ctx, "weebcentral", h(100))
	if err != nil || r.Series != 0 || r.Failing != 0 || r.Since != nil {
		t.Fatalf("empty: %+v %v", r, err)
	}
	for i, id := range []string{"a", "b", "c", "d"} {
		if _, err := st.EnsureSeries(ctx, "weebcentral", id, "https://weebcentral.example/"+id); err != nil {
			t.Fatal(err)
		}
		outcome := "no_chapter"
		if id == "d" {
			outcome = "errors"
		}
		if _, err := st.Pool().Exec(ctx, `INSERT INTO poll_failures (site, series_id, outcome, failing_since)
			VALUES ('weebcentral', $1, $2, $3)`, id, outcome, h(i)); err != nil {
			t.Fatal(err)
		}
	}
	r, _ = st.NoticeFailureShare(ctx, "weebcentral", h(1))
	if r.Series != 4 || r.Failing != 2 || r.Since != nil {
		t.Fatalf("cutoff h1: %+v", r)
	}
	r, _ = st.NoticeFailureShare(ctx, "weebcentral", h(2))
	if r.Series != 4 || r.Outcome != "no_chapter" || r.Failing != 3 || r.Since == nil || !r.Since.Equal(h(2)) {
		t.Fatalf("cutoff h2: %+v", r)
	}
}

// The share is per outcome: the most numerous outcome is the one
// reported, rows of other outcomes never add to it, and a row of a word
// that is not a failure outcome is not counted at all.
func TestNoticeFailureShareIsPerOutcome(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	h := func(n int) time.Time { return noticeT0.Add(time.Duration(n) * time.Hour) }
	words := []string{"not_found", "not_found", "unfetchable", "errors", "not_found", "no_chapter"}
	for i, w := range words {
		id := fmt.Sprintf("s%d", i)
		if _, err := st.EnsureSeries(ctx, "comix", id, "https://comix.example/"+id); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Pool().Exec(ctx, `INSERT INTO poll_failures (site, series_id, outcome, failing_since)
			VALUES ('comix', $1, $2, $3)`, id, w, h(i)); err != nil {
			t.Fatal(err)
		}
	}
	r, err := st.NoticeFailureShare(ctx, "comix", h(10))
	// 3 of 6 are not_found: the largest share, exactly half; Since (the
	// 4th oldest not_found row) does not exist, AtHalf is the 3rd.
	if err != nil || r.Series != 6 || r.Outcome != "not_found" || r.Failing != 3 || r.Since != nil ||
		r.AtHalf == nil || !r.AtHalf.Equal(h(4)) {
		t.Fatalf("share %+v %v", r, err)
	}
	// Only rows at least as old as cutoff count.
	r, _ = st.NoticeFailureShare(ctx, "comix", h(2))
	if r.Outcome != "not_found" || r.Failing != 2 {
		t.Fatalf("cutoff h2: %+v", r)
	}
}
