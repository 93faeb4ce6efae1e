package store_test

import (
	"errors"
	"testing"

	"mangabookmark/backend/store"
)

func TestHandLinkHoldsForItsReaderUntilConfirmed(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r1, r2, r3 := w.reader("1"), w.reader("2"), w.reader("3")
	for _, r := range []int64{r1, r2} {
		w.bookmark(r, "mangadex", "a", t0)
		w.bookmark(r, "mangapill", "c", t0)
	}
	w.readWith("mangadex", "a", "20", t0, nil)
	w.readWith("mangapill", "c", "18", t0, nil)
	a, c := store.SeriesRef{Site: "mangadex", SeriesID: "a"}, store.SeriesRef{Site: "mangapill", SeriesID: "c"}

	wk, err := w.st.LinkByHand(w.ctx, r1, a, c)
	if err != nil {
		t.Fatal(err)
	}
	w.progress(r1, "mangapill", "c", "18")
	w.progress(r2, "mangapill", "c", "18")
	mine, theirs := w.bookmarks(r1), w.bookmarks(r2)
	if mine["mangapill"].WorkID == nil || *mine["mangapill"].WorkID != wk || !mine["mangapill"].New {
		t.Fatalf("the linking Reader's mangapill card: work %v new %v, want Work %d and new (the Work's Latest is 20)",
			mine["mangapill"].WorkID, mine["mangapill"].New, wk)
	}
	if theirs["mangapill"].WorkID != nil || theirs["mangapill"].New {
		t.Fatalf("another Reader's card changed: work %v new %v", theirs["mangapill"].WorkID, theirs["mangapill"].New)
	}
	got, err := w.st.ReaderWork(w.ctx, r1, wk, t0)
	if err != nil || len(got.Members) != 2 || !got.Members[0].Pending {
		t.Fatalf("the linking Reader's Work %+v %v, want two pending members", got, err)
	}
	if _, err := w.st.ReaderWork(w.ctx, r2, wk, t0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another Reader sees the unconfirmed Work: %v", err)
	}
	if n := w.count(`SELECT count(*) FROM work_members`); n != 0 {
		t.Fatalf("%d shared members after one Reader's hand link, want 0", n)
	}

	// A second Reader links the same two: confirmed, shared for everyone.
	if again, err := w.st.LinkByHand(w.ctx, r2, c, a); err != nil || again != wk {
		t.Fatalf("second Reader's link: Work %d %v, want %d", again, err, wk)
	}
	if n := w.count(`SELECT count(*) FROM work_members WHERE work_id = $1 AND linked_by = 'reader'`, wk); n != 2 {
		t.Fatalf("%d shared members after confirmation, want 2", n)
	}
	if n := w.count(`SELECT count(*) FROM work_hand_links`); n != 0 {
		t.Fatalf("%d hand links left after confirmation, want 0", n)
	}
	if got := w.bookmarks(r2)["mangapill"]; got.WorkID == nil || *got.WorkID != wk {
		t.Fatalf("after confirmation the second Reader's card has Work %v", got.WorkID)
	}

	// Neither bookmarked, or unknown: not found.
	if _, err := w.st.LinkByHand(w.ctx, r3, a, c); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a Reader who bookmarks neither: %v", err)
	}
	if _, err := w.st.LinkByHand(w.ctx, r1, a, store.SeriesRef{Site: "comix", SeriesID: "nope"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an unknown Series: %v", err)
	}
}

// TestUnlinkRemovesTheReadersOwnHandLink: unlinking a member the Reader
// holds by their own unconfirmed hand link removes that link, and only
// theirs: the shared members, another Reader's hand link of the same
// Series (to another Work) and the ids' rule (no work_unlinks row: the
// link was this Reader's word alone) stay.
func TestUnlinkRemovesTheReadersOwnHandLink(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r1, r2 := w.reader("1"), w.reader("2")
	wk := w.twoMemberWork(r1, "20", "18")
	w.bookmark(r1, "mangapill", "c", t0)
	w.bookmark(r2, "mangapill", "c", t0)
	w.bookmark(r2, "weebcentral", "d", t0)
	a := store.SeriesRef{Site: "mangadex", SeriesID: "a"}
	c := store.SeriesRef{Site: "mangapill", SeriesID: "c"}
	d := store.SeriesRef{Site: "weebcentral", SeriesID: "d"}
	if got, err := w.st.LinkByHand(w.ctx, r1, a, c); err != nil || got != wk {
		t.Fatalf("Reader 1 links c to the Work: %d %v, want %d", got, err, wk)
	}
	other, err := w.st.LinkByHand(w.ctx, r2, c, d)
	if err != nil || other == wk {
		t.Fatalf("Reader 2 links c with d: %d %v, want a Work of their own", other, err)
	}

	// Reader 2 holds no link of c to this Work: nothing of theirs or
	// Reader 1's goes.
	if _, err := w.st.UnlinkMember(w.ctx, r2, wk, c.Site, c.SeriesID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Reader 2 unlinks c from a Work they hold no link of it to: %v, want ErrNotFound", err)
	}
	if _, err := w.st.UnlinkMember(w.ctx, r1, wk, c.Site, c.SeriesID); err != nil {
		t.Fatalf("Reader 1 unlinks their own hand link: %v", err)
	}
	if n := w.count(`SELECT count(*) FROM work_hand_links WHERE reader_id = $1`, r1); n != 0 {
		t.Fatalf("Reader 1 holds %d hand links after the unlink, want 0", n)
	}
	if n := w.count(`SELECT count(*) FROM work_hand_links WHERE reader_id = $1 AND work_id = $2`, r2, other); n != 2 {
		t.Fatalf("Reader 2 holds %d hand links to their Work, want 2 (untouched)", n)
	}
	if n := w.count(`SELECT count(*) FROM work_members WHERE work_id = $1`, wk); n != 2 {
		t.Fatalf("%d shared members left, want 2 (untouched)", n)
	}
	if n := w.count(`SELECT count(*) FROM work_unlinks`); n != 0 {
		t.Fatalf("%d work_unlinks rows after removing a hand link, want 0", n)
	}
	if got := w.bookmarks(r1)["mangapill"]; got.WorkID != nil {
		t.Fatalf("Reader 1's card of c is still in Work %d", *got.WorkID)
	}
	if got, err := w.st.ReaderWork(w.ctx, r1, wk, t0); err != nil || len(got.Members) != 2 {
		t.Fatalf("Reader 1's Work after the unlink: %+v %v, want the two shared members", got, err)
	}
	if _, err := w.st.UnlinkMember(w.ctx, r1, wk, c.Site, c.SeriesID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unlinking it again: %v, want ErrNotFound", err)
	}
}
