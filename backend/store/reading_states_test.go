package store_test

import (
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// On hold and dropped owe no Chapter notices, and setting either settles
// what was still owed (the pile too); reading again owes the next one.
func TestQuietStatesOweNoNotices(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	hold, drop, keep := w.reader("1"), w.reader("2"), w.reader("3")
	for _, r := range []int64{hold, drop, keep} {
		w.bookmark(r, "mangadex", "x", t0.Add(-time.Hour))
	}
	w.read("mangadex", "x", "1", t0)
	w.read("mangadex", "x", "2", t0.Add(time.Minute)) // owed to all three
	owed := func(r int64) int {
		return w.count(`SELECT count(*) FROM reader_notices WHERE reader_id = $1 AND done_at IS NULL`, r)
	}
	if owed(hold) != 1 {
		t.Fatalf("before: %d owed", owed(hold))
	}
	if err := w.st.SetBookmarkState(w.ctx, hold, "mangadex", "x", store.StateOnHold, t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := w.st.SetBookmarkState(w.ctx, drop, "mangadex", "x", store.StateDropped, t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if owed(hold) != 0 || owed(drop) != 0 || owed(keep) != 1 {
		t.Fatalf("after the states: owed %d %d %d, want 0 0 1", owed(hold), owed(drop), owed(keep))
	}
	w.read("mangadex", "x", "3", t0.Add(3*time.Minute))
	if owed(hold) != 0 || owed(drop) != 0 || owed(keep) != 2 {
		t.Fatalf("a new chapter: owed %d %d %d, want 0 0 2", owed(hold), owed(drop), owed(keep))
	}
	if err := w.st.SetBookmarkState(w.ctx, hold, "mangadex", "x", store.StateReading, t0.Add(4*time.Minute)); err != nil {
		t.Fatal(err)
	}
	w.read("mangadex", "x", "4", t0.Add(5*time.Minute))
	if owed(hold) != 1 {
		t.Fatalf("reading again: %d owed, want 1", owed(hold))
	}
}

// A Work's state is set on every bookmark of its members, and its quiet
// state silences the Work's notices from any member.
func TestWorkStateQuietsEveryMember(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	r := w.reader("1")
	w.bookmark(r, "mangadex", "x", t0.Add(-time.Hour))
	w.bookmark(r, "comix", "y", t0.Add(-time.Hour))
	ids := storetest.Works(w.ctx, t, w.st, storetest.WorkOpts{Members: []storetest.MemberOpts{
		{Site: "mangadex", SeriesID: "x"}, {Site: "comix", SeriesID: "y"}}})
	if err := w.st.SetWorkState(w.ctx, r, ids[0], store.StateDropped, t0); err != nil {
		t.Fatal(err)
	}
	if n := w.count(`SELECT count(*) FROM bookmarks WHERE reader_id = $1 AND state = 'dropped' AND state_by_hand`, r); n != 2 {
		t.Fatalf("%d bookmarks dropped, want both", n)
	}
	w.read("mangadex", "x", "1", t0)
	w.read("comix", "y", "1", t0)
	w.read("mangadex", "x", "2", t0.Add(time.Minute))
	w.read("comix", "y", "3", t0.Add(2*time.Minute))
	if n := w.count(`SELECT count(*) FROM reader_notices WHERE reader_id = $1`, r); n != 0 {
		t.Fatalf("%d notices of a dropped Work", n)
	}
	if err := w.st.SetWorkState(w.ctx, r, ids[0]+1000, store.StatePlan, t0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a Work they do not follow: %v, want ErrNotFound", err)
	}
	if err := w.st.SetBookmarkState(w.ctx, r, "mangadex", "nope", store.StatePlan, t0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("no such bookmark: %v, want ErrNotFound", err)
	}
	if err := w.st.SetBookmarkState(w.ctx, r, "mangadex", "x", "paused", t0); err == nil || errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a state not of the six: %v", err)
	}
}

// The library page filters by state and sorts by it.
func TestLibraryPageByState(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	r := w.reader("1")
	for _, id := range []string{"a", "b", "c"} {
		w.bookmark(r, "mangadex", id, t0)
	}
	for id, st := range map[string]string{"a": store.StateDropped, "b": store.StatePlan} {
		if err := w.st.SetBookmarkState(w.ctx, r, "mangadex", id, st, t0); err != nil {
			t.Fatal(err)
		}
	}
	p, err := w.st.LibraryPage(w.ctx, r, store.LibraryQuery{State: store.StatePlan, PerPage: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Cards) != 1 || p.Cards[0].Items[0].SeriesID != "b" || p.Cards[0].Items[0].State != store.StatePlan || p.Total != 3 {
		t.Fatalf("plan filter: %+v", p)
	}
	p, err = w.st.LibraryPage(w.ctx, r, store.LibraryQuery{Sort: store.LibrarySortState, PerPage: 10})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.Cards {
		got = append(got, c.Items[0].SeriesID)
	}
	if len(got) != 3 || got[0] != "c" || got[1] != "b" || got[2] != "a" {
		t.Fatalf("by state: %v, want c (reading), b (plan), a (dropped)", got)
	}
}
