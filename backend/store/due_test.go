package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

func seedAt(t testing.TB, st *store.Store, site, id string, created time.Time, checked, forced *time.Time) {
	t.Helper()
	_, err := st.Pool().Exec(context.Background(), `INSERT INTO series (site, series_id, url, created_at, latest_checked_at, force_poll_at)
		VALUES ($1, $2, 'https://x/' || $2, $3, $4, $5)`, site, id, created, checked, forced)
	if err != nil {
		t.Fatal(err)
	}
}

func ptr(t time.Time) *time.Time { return &t }

func TestDueOrderAndCutoff(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rest := time.Hour
	c := now.Add(-48 * time.Hour)
	seedAt(t, st, "s", "rested-2h", c, ptr(now.Add(-2*time.Hour)), nil)
	seedAt(t, st, "s", "rested-1h", c, ptr(now.Add(-rest)), nil) // exactly at the cutoff: due
	seedAt(t, st, "s", "fresh", c, ptr(now.Add(-59*time.Minute)), nil)
	seedAt(t, st, "s", "never", now.Add(-10*time.Minute), nil, nil)
	seedAt(t, st, "s", "never-forced", now.Add(-5*time.Minute), nil, ptr(now.Add(-20*time.Second)))
	seedAt(t, st, "s", "forced", c, ptr(now.Add(-time.Minute)), ptr(now.Add(-30*time.Second)))
	seedAt(t, st, "s", "old-force", c, ptr(now.Add(-time.Minute)), ptr(now.Add(-2*time.Minute))) // force answered
	seedAt(t, st, "other", "x", c, nil, nil)

	got, err := st.DueBatch(ctx, "s", rest, now, 10)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range got {
		ids = append(ids, d.SeriesID)
	}
	want := []string{"forced", "never-forced", "never", "rested-2h", "rested-1h"}
	if len(ids) != len(want) {
		t.Fatalf("due = %v, want %v", ids, want)
	}
	for i := range want {
		if ids[i] != want[i] {
			t.Fatalf("due = %v, want %v", ids, want)
		}
	}
	if two, _ := st.DueBatch(ctx, "s", rest, now, 2); len(two) != 2 || two[1].SeriesID != "never-forced" {
		t.Fatalf("limit 2: %+v", two)
	}
	sum, err := st.DueSummary(ctx, "s", rest, now)
	if err != nil {
		t.Fatal(err)
	}
	// Oldest due: rested-2h became due an hour ago.
	if sum.Due != 5 || sum.Forced != 2 || sum.BehindBy(now) != time.Hour {
		t.Fatalf("summary %+v behind %v", sum, sum.BehindBy(now))
	}
	if _, ok, err := st.StampChecked(ctx, "s", "forced", now); err != nil || !ok {
		t.Fatalf("stamp: %v %v", ok, err)
	}
	if s, _ := st.GetSeries(ctx, "s", "forced"); s.ForcePollAt != nil || !s.LatestCheckedAt.Equal(now) {
		t.Fatalf("stamp did not consume the force: %+v", s)
	}
	if _, ok, _ := st.StampChecked(ctx, "s", "gone", now); ok {
		t.Fatal("stamped a missing series")
	}
	empty, err := st.DueSummary(ctx, "nothing", rest, now)
	if err != nil || empty.Due != 0 || empty.BehindBy(now) != 0 {
		t.Fatalf("empty summary: %+v %v", empty, err)
	}
}

func TestNextDueAt(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if _, ok, err := st.NextDueAt(ctx, "s", time.Hour, now); err != nil || ok {
		t.Fatalf("empty site: %v %v", ok, err)
	}
	seedAt(t, st, "s", "a", now, ptr(now.Add(-20*time.Minute)), nil)
	seedAt(t, st, "s", "b", now, ptr(now.Add(-10*time.Minute)), nil)
	next, ok, err := st.NextDueAt(ctx, "s", time.Hour, now)
	if err != nil || !ok || !next.Equal(now.Add(40*time.Minute)) {
		t.Fatalf("next = %v %v %v", next, ok, err)
	}
	if _, err := st.ForcePoll(ctx, "s", "b", now); err != nil {
		t.Fatal(err)
	}
	if next, _, _ := st.NextDueAt(ctx, "s", time.Hour, now); !next.Equal(now) {
		t.Fatalf("forced: next = %v", next)
	}
	if _, err := st.ForcePoll(ctx, "s", "zzz", now); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("force unknown: %v", err)
	}
}

func TestRestedDueAt(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	seedAt(t, st, "s", "a", now, ptr(now.Add(-70*time.Minute)), nil) // due 10 minutes ago
	seedAt(t, st, "s", "b", now, ptr(now.Add(-20*time.Minute)), nil)
	seedAt(t, st, "s", "c", now, ptr(now.Add(-10*time.Minute)), nil)
	seedAt(t, st, "s", "new", now, nil, nil) // never checked: not counted
	for _, c := range []struct {
		n    int
		want time.Time
		ok   bool
	}{{1, now.Add(-10 * time.Minute), true}, {2, now.Add(40 * time.Minute), true}, {3, now.Add(50 * time.Minute), true}, {4, time.Time{}, false}} {
		at, ok, err := st.RestedDueAt(ctx, "s", time.Hour, c.n)
		if err != nil || ok != c.ok || !at.Equal(c.want) {
			t.Errorf("n=%d: %v %v %v, want %v %v", c.n, at, ok, err, c.want, c.ok)
		}
	}
	// A slow Series rests SlowRest.
	if _, err := st.Pool().Exec(ctx, `UPDATE series SET slow = true WHERE site = 's' AND series_id = 'b'`); err != nil {
		t.Fatal(err)
	}
	if at, ok, err := st.RestedDueAt(ctx, "s", time.Hour, 3); err != nil || !ok || !at.Equal(now.Add(-20*time.Minute).Add(store.SlowRest)) {
		t.Errorf("slow: %v %v %v", at, ok, err)
	}
}

func TestRecordOK(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	seedAt(t, st, "s", "1", now, nil, nil)
	if err := st.UpsertFailure(ctx, "s", "1", "errors", now); err != nil {
		t.Fatal(err)
	}
	r, err := st.RecordOK(ctx, "s", "1", store.ReadFacts{Title: "T", CoverURL: "https://c/1.jpg", Number: "10", ChURL: "https://x/1/10"}, now)
	if err != nil || r.New || !r.NeedCover || r.CoverURL != "https://c/1.jpg" {
		t.Fatalf("first ok: %+v %v", r, err)
	}
	var n int
	_ = st.Pool().QueryRow(ctx, `SELECT count(*) FROM poll_failures`).Scan(&n)
	if n != 0 {
		t.Fatal("failure row survived a good read")
	}
	// Same chapter later: latest_seen_at stays; title kept when the read has none.
	r, err = st.RecordOK(ctx, "s", "1", store.ReadFacts{Number: "10.0"}, now.Add(time.Hour))
	if err != nil || r.New {
		t.Fatalf("same chapter: %+v %v", r, err)
	}
	s, _ := st.GetSeries(ctx, "s", "1")
	if s.Title != "T" || s.CoverURL != "https://c/1.jpg" || !s.LatestSeenAt.Equal(now) {
		t.Fatalf("after same chapter: %+v", s)
	}
	// The same read again changes nothing and writes no new row version.
	xmin := func() (x int64) {
		_ = st.Pool().QueryRow(ctx, `SELECT xmin::text::bigint FROM series WHERE site = 's' AND series_id = '1'`).Scan(&x)
		return x
	}
	before := xmin()
	if _, err := st.RecordOK(ctx, "s", "1", store.ReadFacts{Number: "10.0"}, now.Add(90*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if after := xmin(); after != before {
		t.Fatalf("an unchanged read rewrote the Series row (xmin %d -> %d)", before, after)
	}
	if err := st.PutCover(ctx, "s", "1", store.Cover{ContentType: "image/jpeg", Body: []byte{1}, FetchedAt: now, SourceURL: "https://c/1.jpg"}); err != nil {
		t.Fatal(err)
	}
	r, err = st.RecordOK(ctx, "s", "1", store.ReadFacts{Number: "11", CoverURL: "https://c/1.jpg"}, now.Add(2*time.Hour))
	if err != nil || !r.New || r.NeedCover {
		t.Fatalf("moved chapter: %+v %v", r, err)
	}
	s, _ = st.GetSeries(ctx, "s", "1")
	if s.LatestNumber != "11" || !s.LatestSeenAt.Equal(now.Add(2*time.Hour)) {
		t.Fatalf("after move: %+v", s)
	}
	if _, err := st.RecordOK(ctx, "s", "nope", store.ReadFacts{Number: "1"}, now); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing series: %v", err)
	}
}

// A read that never reached the Site puts its Series back: due as before,
// its Forced Poll pending again; a later stamp is never undone.
func TestRestoreChecked(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rest := time.Hour
	c := now.Add(-48 * time.Hour)
	force := now.Add(-30 * time.Second)
	seedAt(t, st, "s", "forced", c, ptr(now.Add(-time.Minute)), ptr(force))
	seedAt(t, st, "s", "never", c, nil, nil)

	for _, id := range []string{"forced", "never"} {
		before, _ := st.GetSeries(ctx, "s", id)
		stamp, ok, err := st.StampChecked(ctx, "s", id, now)
		if err != nil || !ok {
			t.Fatalf("%s: stamp %v %v", id, ok, err)
		}
		if restored, err := st.RestoreChecked(ctx, "s", id, stamp); err != nil || !restored {
			t.Fatalf("%s: restore %v %v", id, restored, err)
		}
		after, _ := st.GetSeries(ctx, "s", id)
		if !eqTime(after.LatestCheckedAt, before.LatestCheckedAt) || !eqTime(after.ForcePollAt, before.ForcePollAt) {
			t.Errorf("%s: after restore %v/%v, want %v/%v", id, after.LatestCheckedAt, after.ForcePollAt, before.LatestCheckedAt, before.ForcePollAt)
		}
	}
	if due, _ := st.DueBatch(ctx, "s", rest, now, 10); len(due) != 2 || due[0].SeriesID != "forced" {
		t.Fatalf("due after restores: %+v, want forced first and never", due)
	}

	// A newer stamp (another read since) is left alone.
	stamp, _, _ := st.StampChecked(ctx, "s", "never", now)
	if _, _, err := st.StampChecked(ctx, "s", "never", now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if restored, err := st.RestoreChecked(ctx, "s", "never", stamp); err != nil || restored {
		t.Fatalf("restored over a newer stamp: %v %v", restored, err)
	}
	if s, _ := st.GetSeries(ctx, "s", "never"); !eqTime(s.LatestCheckedAt, ptr(now.Add(time.Minute))) {
		t.Errorf("newer stamp lost: %v", s.LatestCheckedAt)
	}
}

func eqTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}
