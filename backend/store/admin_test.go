package store_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

func TestAdminLaneReads(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := st.Pool().Exec(ctx, sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	// a: 1 never checked (created 3h ago), 1 checked 2h ago, 1 fresh with a pending force.
	exec(`INSERT INTO series (site, series_id, url, latest_checked_at, force_poll_at, created_at) VALUES
		('a', '1', 'u', NULL, NULL, $1), ('a', '2', 'u', $2, NULL, $1), ('a', '3', 'u', $3, $4, $1),
		('b', '1', 'u', $3, NULL, $1)`,
		now.Add(-3*time.Hour), now.Add(-2*time.Hour), now.Add(-10*time.Minute), now.Add(-time.Minute))
	exec(`INSERT INTO poll_failures (site, series_id, outcome, failing_since) VALUES ('a', '2', 'errors', $1)`, now.Add(-time.Hour))
	lanes := []store.AdminLaneSite{{Site: "b", Rest: time.Hour}, {Site: "a", Rest: time.Hour}, {Site: "c", Rest: time.Hour}}

	counts, err := st.AdminLaneCounts(ctx, now, lanes)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.AdminLaneCount{{Site: "b", Series: 1}, {Site: "a", Series: 3, RestDue: 2, Failing: 1}, {Site: "c"}}
	for i, w := range want {
		if counts[i] != w {
			t.Errorf("counts[%d] = %+v, want %+v", i, counts[i], w)
		}
	}
	snaps, err := st.AdminLaneSnapshots(ctx, now, lanes)
	if err != nil {
		t.Fatal(err)
	}
	if len(snaps) != 3 || snaps[0].Site != "b" || snaps[1].Site != "a" || snaps[2].Site != "c" {
		t.Fatalf("snapshot order = %+v", snaps)
	}
	a := snaps[1]
	if a.ForcedPending != 1 || a.ForcedNotRestDue != 1 || a.OldestDueSince == nil || !a.OldestDueSince.Equal(now.Add(-3*time.Hour)) {
		t.Errorf("a = forced %d/%d due since %v; want 1/1 and the never-checked created_at", a.ForcedPending, a.ForcedNotRestDue, a.OldestDueSince)
	}
	if snaps[0].OldestDueSince != nil || snaps[2].LastPass != nil {
		t.Errorf("b due since %v, c last pass %v; want none", snaps[0].OldestDueSince, snaps[2].LastPass)
	}
	// Without the never-checked Series: the checked one became due at
	// checked + Rest (1h ago); the forced one at its Forced Poll (1m ago).
	exec(`DELETE FROM series WHERE site = 'a' AND series_id = '1'`)
	snaps, _ = st.AdminLaneSnapshots(ctx, now, lanes[1:2])
	if got := snaps[0].OldestDueSince; got == nil || !got.Equal(now.Add(-time.Hour)) {
		t.Errorf("due since = %v, want checked + Rest", got)
	}
	exec(`DELETE FROM series WHERE site = 'a' AND series_id = '2'`)
	snaps, _ = st.AdminLaneSnapshots(ctx, now, lanes[1:2])
	if got := snaps[0].OldestDueSince; got == nil || !got.Equal(now.Add(-time.Minute)) {
		t.Errorf("due since = %v, want the Forced Poll", got)
	}
}

func TestAdminFailingTotalIsCapped(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	if _, err := st.Pool().Exec(ctx, `
		INSERT INTO series (site, series_id, url) SELECT 'a', i::text, 'u' FROM generate_series(1, $1::int) i;
		`, store.AdminFailingTotalCap+5); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `
		INSERT INTO poll_failures (site, series_id, outcome, failing_since)
		SELECT 'a', i::text, 'errors', $2::timestamptz - i * interval '1 second' FROM generate_series(1, $1::int) i`,
		store.AdminFailingTotalCap+5, now); err != nil {
		t.Fatal(err)
	}
	rows, total, err := st.AdminFailingList(ctx, store.AdminFailingFilter{Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if total != store.AdminFailingTotalCap+1 || len(rows) != 3 || rows[0].SeriesID != "10005" {
		t.Errorf("total %d, rows %d, first %+v", total, len(rows), rows[0])
	}
	_, total, _ = st.AdminFailingList(ctx, store.AdminFailingFilter{Outcome: "not_found", Limit: 3})
	if total != 0 {
		t.Errorf("not_found total = %d", total)
	}
}
