package store_test

import (
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// readStatus records a good read of number carrying a status and final
// chapter.
func (w *noticeWorld) readStatus(site, id, number, status, final string, at time.Time) {
	w.t.Helper()
	_, err := w.st.RecordOK(w.ctx, site, id, store.ReadFacts{Title: "T " + id, Number: number, ChTitle: "Chapter " + number,
		ChURL: "https://" + site + ".example/" + id + "/" + number, Status: status, FinalChapter: final}, at)
	if err != nil {
		w.t.Fatal(err)
	}
}

// statusLines counts a Reader's status lines of changes into status.
func (w *noticeWorld) statusLines(reader int64, status string) int {
	return w.count(`SELECT count(*) FROM reader_status_notices n JOIN status_changes c ON c.id = n.change_id
		WHERE n.reader_id = $1 AND c.status = $2`, reader, status)
}

// A lone Series' status changes are owed once per Reader and change: the
// first status is the baseline, reads repeating a status owe nothing, a
// Reader who dropped the story is owed nothing, and releasing again after
// a hiatus is told.
func TestStatusChangeOwedOncePerReader(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	a, b, c := w.reader("1"), w.reader("2"), w.reader("3")
	for _, r := range []int64{a, b, c} {
		w.bookmark(r, "mangadex", "x", t0.Add(-time.Hour))
	}
	if err := w.st.SetBookmarkState(w.ctx, c, "mangadex", "x", store.StateDropped, t0); err != nil {
		t.Fatal(err)
	}
	w.readStatus("mangadex", "x", "10", "releasing", "", t0)
	if n := w.count(`SELECT count(*) FROM status_changes`); n != 0 {
		t.Fatalf("the first status recorded %d changes, want the baseline only", n)
	}
	for i := range 3 { // three reads say hiatus: one change
		w.readStatus("mangadex", "x", "10", "hiatus", "", t0.Add(time.Duration(i+1)*time.Hour))
	}
	w.readStatus("mangadex", "x", "11", "releasing", "", t0.Add(5*time.Hour))
	w.readStatus("mangadex", "x", "12", "completed", "12", t0.Add(6*time.Hour))
	w.readStatus("mangadex", "x", "12", "", "", t0.Add(7*time.Hour)) // a page without a status keeps it
	for _, st := range []string{"hiatus", "releasing", "completed"} {
		if n := w.statusLines(a, st); n != 1 {
			t.Errorf("reader a: %d lines of %s, want 1", n, st)
		}
		if n := w.statusLines(b, st); n != 1 {
			t.Errorf("reader b: %d lines of %s, want 1", n, st)
		}
		if n := w.statusLines(c, st); n != 0 {
			t.Errorf("the dropped reader: %d lines of %s, want none", n, st)
		}
	}
	bm, err := w.st.GetBookmark(w.ctx, a, "mangadex", "x")
	if err != nil {
		t.Fatal(err)
	}
	if bm.Status != "completed" || bm.FinalChapter != "12" || bm.State != store.StateReading {
		t.Fatalf("bookmark status %q final %q state %q", bm.Status, bm.FinalChapter, bm.State)
	}
}

// A Work's status is the most advanced its members report; two members
// saying the same thing make one change, told once to a Reader of both.
func TestWorkStatusOneChangeAcrossMembers(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	r := w.reader("1")
	w.bookmark(r, "mangadex", "x", t0.Add(-time.Hour))
	w.bookmark(r, "comix", "y", t0.Add(-time.Hour))
	ids := storetest.Works(w.ctx, t, w.st, storetest.WorkOpts{Members: []storetest.MemberOpts{
		{Site: "mangadex", SeriesID: "x"}, {Site: "comix", SeriesID: "y", Offset: "1"}}})
	w.readStatus("mangadex", "x", "10", "releasing", "", t0)
	w.readStatus("comix", "y", "9", "releasing", "", t0)
	w.readStatus("mangadex", "x", "20", "completed", "20", t0.Add(time.Hour))
	w.readStatus("comix", "y", "19", "completed", "19", t0.Add(2*time.Hour))
	w.readStatus("comix", "y", "19", "releasing", "", t0.Add(3*time.Hour)) // a lagging member does not undo it
	if n := w.statusLines(r, "completed"); n != 1 {
		t.Fatalf("%d completed lines, want 1", n)
	}
	if n := w.count(`SELECT count(*) FROM reader_status_notices`); n != 1 {
		t.Fatalf("%d status lines in all, want 1", n)
	}
	bm, err := w.st.GetBookmark(w.ctx, r, "comix", "y")
	if err != nil {
		t.Fatal(err)
	}
	// the Work's final chapter 20 in the comix member's numbers (offset 1)
	if bm.Status != "completed" || bm.FinalChapter != "19" {
		t.Fatalf("member status %q final %q, want completed 19", bm.Status, bm.FinalChapter)
	}
	wk, err := w.st.ReaderWork(w.ctx, r, ids[0], t0.Add(4*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if wk.Status != "completed" || wk.FinalChapter != "20" || wk.State != store.StateReading {
		t.Fatalf("the Work: status %q final %q state %q, want completed 20 reading", wk.Status, wk.FinalChapter, wk.State)
	}
}

// A story never set by hand is finished (completed) once Progress reaches
// its final chapter; a state set by hand stays.
func TestFinishedAtTheFinalChapter(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	r, h := w.reader("1"), w.reader("2")
	w.bookmark(r, "mangadex", "x", t0.Add(-time.Hour))
	w.bookmark(h, "mangadex", "x", t0.Add(-time.Hour))
	w.readStatus("mangadex", "x", "50", "completed", "50", t0)
	state := func(reader int64) string {
		bm, err := w.st.GetBookmark(w.ctx, reader, "mangadex", "x")
		if err != nil {
			t.Fatal(err)
		}
		return bm.State
	}
	w.progress(r, "mangadex", "x", "49.5")
	if s := state(r); s != store.StateReading {
		t.Fatalf("at 49.5 of 50: %s, want reading", s)
	}
	w.progress(r, "mangadex", "x", "50")
	if s := state(r); s != store.StateCompleted {
		t.Fatalf("at the final chapter: %s, want completed", s)
	}
	if err := w.st.SetBookmarkState(w.ctx, h, "mangadex", "x", store.StateRereading, t0); err != nil {
		t.Fatal(err)
	}
	w.progress(h, "mangadex", "x", "50")
	if s := state(h); s != store.StateRereading {
		t.Fatalf("set by hand: %s, want rereading", s)
	}
}

// RecordStatus, a status given as the Series' own page's outside a read
// (tests and seeding), follows a read's rules; an unknown Series is ErrNotFound and a word not of the five
// stores nothing.
func TestRecordStatusHook(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	r := w.reader("1")
	w.bookmark(r, "mangadex", "x", t0.Add(-time.Hour))
	if err := w.st.RecordStatus(w.ctx, "mangadex", "nope", store.StatusCompleted, "", t0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown Series: %v", err)
	}
	if err := w.st.RecordStatus(w.ctx, "mangadex", "x", "upcoming", "", t0); err != nil {
		t.Fatal(err)
	}
	if n := w.count(`SELECT count(*) FROM series WHERE status IS NOT NULL`); n != 0 {
		t.Fatalf("a word not of the five stored a status on %d Series", n)
	}
	for _, st := range []string{store.StatusReleasing, store.StatusCancelled} {
		if err := w.st.RecordStatus(w.ctx, "mangadex", "x", st, "", t0); err != nil {
			t.Fatal(err)
		}
	}
	if n := w.statusLines(r, store.StatusCancelled); n != 1 {
		t.Fatalf("%d cancelled lines, want 1", n)
	}
}
