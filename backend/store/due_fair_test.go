package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// seedBy inserts n never-checked Series caused by Reader by, created one
// millisecond apart from start, with ids prefix0, prefix1, ...
func seedBy(t *testing.T, st *store.Store, site, prefix string, by int64, n int, start time.Time) {
	t.Helper()
	_, err := st.Pool().Exec(context.Background(), `
		INSERT INTO series (site, series_id, url, created_by, created_at)
		SELECT $1, $2 || i, 'https://x/' || $2 || i, $3, $4::timestamptz + i * interval '1 millisecond'
		FROM generate_series(0, $5 - 1) i`, site, prefix, by, start, n)
	if err != nil {
		t.Fatal(err)
	}
}

func dueIDs(t *testing.T, st *store.Store, site string, now time.Time, limit int) []string {
	t.Helper()
	got, err := st.DueBatch(context.Background(), site, time.Hour, now, limit)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, d := range got {
		ids = append(ids, d.SeriesID)
	}
	return ids
}

// One Reader's 1500 new Series must not hold another Reader's new bookmark
// back: never-checked Series are read round-robin by the Reader who caused
// them, after pending Forced Polls and before rested Series.
func TestDueFairAcrossReaders(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := now.Add(-2 * time.Hour)
	seedBy(t, st, "s", "flood-", 1, 1500, c)                 // Reader 1's flood, oldest
	seedBy(t, st, "s", "two-", 2, 1, c.Add(time.Minute))     // Reader 2's one new bookmark, after it
	seedBy(t, st, "s", "three-", 3, 2, c.Add(2*time.Minute)) // Reader 3's two
	seedBy(t, st, "s", "legacy-", 0, 1, c.Add(3*time.Minute))
	seedAt(t, st, "s", "forced", c, ptr(now.Add(-time.Minute)), ptr(now.Add(-10*time.Second)))
	seedAt(t, st, "s", "rested", c, ptr(now.Add(-3*time.Hour)), nil)

	want := []string{"forced", "flood-0", "two-0", "three-0", "legacy-0", "flood-1", "three-1", "flood-2", "flood-3"}
	if got := dueIDs(t, st, "s", now, len(want)); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("due order = %v\nwant       %v", got, want)
	}
	all := dueIDs(t, st, "s", now, 10_000)
	if len(all) != 1506 || all[len(all)-1] != "rested" {
		t.Fatalf("all due: %d, last %q; want 1506 with the rested Series last", len(all), all[len(all)-1])
	}
	sum, err := st.DueSummary(ctx, "s", time.Hour, now)
	// 1505 never checked count as at least DueCountCap, plus the rested
	// one and the forced one that is not otherwise due.
	if err != nil || sum.Due != store.DueCountCap+2 || !sum.AtLeast || sum.Forced != 1 {
		t.Fatalf("summary %+v %v, want at least %d", sum, err, store.DueCountCap+2)
	}
	// Reading Reader 2's Series moves the round on.
	if _, _, err := st.StampChecked(ctx, "s", "two-0", now); err != nil {
		t.Fatal(err)
	}
	if got := dueIDs(t, st, "s", now, 4); fmt.Sprint(got) != "[forced flood-0 three-0 legacy-0]" {
		t.Fatalf("after the read: %v", got)
	}
}

// The due query must never look at poll_failures (docs/adr/0003-failure-row.md):
// a failing Series is due exactly like a healthy one, by order and by
// count. Two Sites hold the same Series at the same times; on one of them
// every arm's head and some others are failing.
func TestDueIgnoresFailures(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := now.Add(-48 * time.Hour)
	for _, site := range []string{"healthy", "failing"} {
		seedAt(t, st, site, "forced-1", c, ptr(now.Add(-time.Minute)), ptr(now.Add(-40*time.Second)))
		seedAt(t, st, site, "forced-2", c, ptr(now.Add(-time.Minute)), ptr(now.Add(-20*time.Second)))
		seedAt(t, st, site, "never-1", now.Add(-30*time.Minute), nil, nil)
		seedAt(t, st, site, "never-2", now.Add(-20*time.Minute), nil, nil)
		seedAt(t, st, site, "rested-3h", c, ptr(now.Add(-3*time.Hour)), nil)
		seedAt(t, st, site, "rested-2h", c, ptr(now.Add(-2*time.Hour)), nil)
		seedAt(t, st, site, "rested-1h", c, ptr(now.Add(-time.Hour)), nil)
		seedAt(t, st, site, "fresh", c, ptr(now.Add(-10*time.Minute)), nil)
	}
	since := now.Add(-30 * 24 * time.Hour)
	for id, outcome := range map[string]string{"forced-1": "errors", "never-1": "not_found",
		"rested-3h": "no_chapter", "rested-1h": "unfetchable", "fresh": "errors"} {
		if err := st.UpsertFailure(ctx, "failing", id, outcome, since); err != nil {
			t.Fatal(err)
		}
	}
	want := "[forced-1 forced-2 never-1 never-2 rested-3h rested-2h rested-1h]"
	for limit := 1; limit <= 8; limit++ {
		h, f := dueIDs(t, st, "healthy", now, limit), dueIDs(t, st, "failing", now, limit)
		if fmt.Sprint(f) != fmt.Sprint(h) {
			t.Fatalf("limit %d: failing Site due %v, healthy Site due %v", limit, f, h)
		}
		if limit == 8 && fmt.Sprint(f) != want {
			t.Fatalf("due %v, want %s", f, want)
		}
	}
	h, err := st.DueSummary(ctx, "healthy", time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	f, err := st.DueSummary(ctx, "failing", time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	if f.Due != 7 || f.Due != h.Due || f.Forced != h.Forced || f.AtLeast || f.BehindBy(now) != h.BehindBy(now) ||
		f.BehindBy(now) != 2*time.Hour {
		t.Fatalf("failing Site summary %+v, healthy %+v; want 7 due, 2 forced, 2h behind on both", f, h)
	}
	hn, _, _ := st.NextDueAt(ctx, "healthy", time.Hour, now)
	fn, _, _ := st.NextDueAt(ctx, "failing", time.Hour, now)
	if !hn.Equal(fn) {
		t.Fatalf("next due: failing %v, healthy %v", fn, hn)
	}
}

// Past DueCountCap the count is a lower bound (AtLeast) and costs no
// more; behind-by stays exact.
func TestDueSummaryBoundedCount(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	n := store.DueCountCap + 7
	_, err := st.Pool().Exec(ctx, `
		INSERT INTO series (site, series_id, url, latest_checked_at)
		SELECT 's', i::text, 'https://x/' || i, $2::timestamptz - interval '1 hour' - i * interval '1 second'
		FROM generate_series(1, $1) i`, n, now)
	if err != nil {
		t.Fatal(err)
	}
	seedAt(t, st, "s", "never", now.Add(-time.Minute), nil, nil)
	seedAt(t, st, "s", "forced", now, ptr(now.Add(-time.Minute)), ptr(now.Add(-30*time.Second)))
	sum, err := st.DueSummary(ctx, "s", time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.AtLeast || sum.Due != store.DueCountCap+2 || sum.Forced != 1 {
		t.Fatalf("summary %+v, want at least %d (capped), 1 forced", sum, store.DueCountCap+2)
	}
	if sum.NeverChecked != 1 {
		t.Fatalf("summary %+v, want 1 never checked (the new bookmark that opens the wake gate)", sum)
	}
	// The oldest rested Series was checked n seconds before the cutoff.
	if want := time.Duration(n) * time.Second; sum.BehindBy(now) != want {
		t.Fatalf("behind by %v, want %v", sum.BehindBy(now), want)
	}
	if _, err := st.Pool().Exec(ctx, `DELETE FROM series WHERE site = 's' AND series_id ~ '^[0-9]+$' AND series_id::int > 10`); err != nil {
		t.Fatal(err)
	}
	sum, err = st.DueSummary(ctx, "s", time.Hour, now)
	if err != nil || sum.AtLeast || sum.Due != 12 || sum.BehindBy(now) != time.Minute {
		t.Fatalf("below the cap: %+v %v, want exactly 12 due, 1m behind (the never-checked one)", sum, err)
	}
}

func TestCountSeriesUpTo(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	seedBy(t, st, "s", "a-", 1, 50, time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	seedBy(t, st, "other", "a-", 1, 5, time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	for _, c := range []struct{ limit, want int }{{10, 10}, {50, 50}, {3601, 50}} {
		if n, err := st.CountSeriesUpTo(ctx, "s", c.limit); err != nil || n != c.want {
			t.Fatalf("up to %d: %d %v, want %d", c.limit, n, err, c.want)
		}
	}
}
