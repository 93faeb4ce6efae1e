package store_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// The attack: a Reader fills the Lanes with junk Series (ids the Site has
// never had). Each reads not_found; without the slow rule every one is
// due again after the Site's Rest, so 5000 of them run the Lane at its
// floor. A junk Series nobody opened for a week rests a day; one that
// once read ok, or that a Reader opened this week, keeps the Rest.
func TestJunkSeriesRestADay(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rest := time.Hour
	r, err := st.UpsertReader(ctx, "2", "A", nil)
	if err != nil {
		t.Fatal(err)
	}
	old := now.Add(-30 * 24 * time.Hour)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := st.Pool().Exec(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"junk", "opened", "once-ok", "fresh-junk"} {
		seedAt(t, st, "s", id, old, ptr(now.Add(-2*time.Hour)), nil)
		exec(`INSERT INTO bookmarks (reader_id, site, series_id, created_at) VALUES ($1, 's', $2, $3)`, r.ID, id, old)
	}
	exec(`UPDATE bookmarks SET created_at = $1 WHERE series_id = 'opened'`, now.Add(-2*24*time.Hour))
	exec(`UPDATE series SET latest_seen_at = $1, latest_number = 3 WHERE series_id = 'once-ok'`, old)
	for _, id := range []string{"junk", "opened", "once-ok"} {
		if err := st.UpsertFailure(ctx, "s", id, "not_found", now.Add(-2*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.UpsertFailure(ctx, "s", "fresh-junk", "errors", now.Add(-2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	due := func(at time.Time) []string {
		t.Helper()
		got, err := st.DueBatch(ctx, "s", rest, at, 100)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, d := range got {
			ids = append(ids, d.SeriesID)
		}
		sort.Strings(ids)
		return ids
	}
	if got := fmt.Sprint(due(now)); got != "[fresh-junk once-ok opened]" {
		t.Fatalf("due two hours after the last read: %s, want every Series but the junk one", got)
	}
	sum, err := st.DueSummary(ctx, "s", rest, now)
	if err != nil || sum.Due != 3 {
		t.Fatalf("summary: %+v %v, want 3 due", sum, err)
	}
	if n, err := st.CountSeriesUpTo(ctx, "s", 100); err != nil || n != 3 {
		t.Fatalf("the Lane's gap counts %d Series (%v), want 3 (not the slow one)", n, err)
	}
	// A day after its last read the junk Series is due again, and the
	// next-due time says so (not "now", which would spin an idle Lane).
	if got := fmt.Sprint(due(now.Add(22 * time.Hour))); got != "[fresh-junk junk once-ok opened]" {
		t.Fatalf("due a day after: %s", got)
	}
	exec(`UPDATE series SET latest_checked_at = $1 WHERE series_id <> 'junk'`, now)
	next, ok, err := st.NextDueAt(ctx, "s", rest, now)
	if err != nil || !ok || !next.Equal(now.Add(rest)) {
		t.Fatalf("next due %v %v %v, want %v (the Rest of the others)", next, ok, err, now.Add(rest))
	}
	exec(`DELETE FROM series WHERE series_id <> 'junk'`)
	next, ok, err = st.NextDueAt(ctx, "s", rest, now)
	if err != nil || !ok || !next.Equal(now.Add(22*time.Hour)) {
		t.Fatalf("next due with only the slow Series: %v %v %v, want %v", next, ok, err, now.Add(22*time.Hour))
	}
	// A Forced Poll reads it at once; a good read makes it an ordinary Series.
	if _, err := st.ForcePoll(ctx, "s", "junk", now); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(due(now)); got != "[junk]" {
		t.Fatalf("forced: %s", got)
	}
	if _, err := st.RecordOK(ctx, "s", "junk", store.ReadFacts{Number: "1"}, now); err != nil {
		t.Fatal(err)
	}
	exec(`UPDATE series SET force_poll_at = NULL, latest_checked_at = $1`, now.Add(-2*time.Hour))
	if got := fmt.Sprint(due(now)); got != "[junk]" {
		t.Fatalf("after a good read: %s, want it due at the Rest", got)
	}
}

// A Reader's bookmarks of Series never read ok count towards a cap much
// smaller than the bookmark cap; a Series that has read ok is not held.
func TestNeverReadCap(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 1000, MaxBookmarks: 50, MaxNeverRead: 3})
	ctx := context.Background()
	r, err := st.UpsertReader(ctx, "2", "A", nil)
	if err != nil {
		t.Fatal(err)
	}
	add := func(id string) error {
		_, err := st.AddReaderBookmark(ctx, r.ID, "mangapill", id, "https://mangapill.com/manga/"+id)
		return err
	}
	for i := 0; i < 3; i++ {
		if err := add(fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := add("9"); !errors.Is(err, store.ErrNeverReadLimit) {
		t.Fatalf("a fourth never-read Series: %v, want ErrNeverReadLimit", err)
	}
	res, err := st.ApplyReads(ctx, []store.Read{{ReaderID: r.ID, Site: "mangapill", SeriesID: "10",
		SeriesURL: "https://mangapill.com/manga/10", Number: "1", ReadAt: time.Now()}})
	if err != nil || !errors.Is(res[0].Refused, store.ErrNeverReadLimit) {
		t.Fatalf("a read of a fourth never-read Series: %+v %v", res, err)
	}
	// A Series someone else follows that has read ok is welcome.
	o, _ := st.UpsertReader(ctx, "3", "B", nil)
	if _, err := st.AddBookmark(ctx, o.ID, "mangapill", "ok", "https://mangapill.com/manga/ok"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecordOK(ctx, "mangapill", "ok", store.ReadFacts{Number: "4"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := add("ok"); err != nil {
		t.Fatalf("a Series that reads ok past the never-read cap: %v", err)
	}
}
