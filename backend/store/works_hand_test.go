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
