package store_test

import (
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// twoMemberWork links mangadex/a and comix/b by al 1, both bookmarked by
// the Reader, a at Latest na and b at Latest nb.
func (w *noticeWorld) twoMemberWork(reader int64, na, nb string) int64 {
	w.t.Helper()
	w.bookmark(reader, "mangadex", "a", t0.Add(-time.Hour))
	w.bookmark(reader, "comix", "b", t0.Add(-time.Hour))
	w.readWith("mangadex", "a", na, t0, nil, al("1"))
	w.readWith("comix", "b", nb, t0, nil, al("1"))
	wk := w.workOf("mangadex", "a")
	if wk == 0 || w.workOf("comix", "b") != wk {
		w.t.Fatal("the two Series did not link")
	}
	return wk
}

func (w *noticeWorld) bookmarks(reader int64) map[string]store.Bookmark {
	w.t.Helper()
	list, err := w.st.ListBookmarks(w.ctx, reader)
	if err != nil {
		w.t.Fatal(err)
	}
	lib, err := w.st.Library(w.ctx, reader)
	if err != nil {
		w.t.Fatal(err)
	}
	out := map[string]store.Bookmark{}
	for i, b := range list {
		out[b.Site] = b
		var l store.Bookmark
		for _, it := range lib {
			if it.Site == b.Site {
				l = it.Bookmark
			}
		}
		if l.New != b.New || (l.WorkID == nil) != (b.WorkID == nil) {
			w.t.Fatalf("bookmark %d: the library says new=%v work=%v, the list new=%v work=%v", i, l.New, l.WorkID, b.New, b.WorkID)
		}
	}
	return out
}

func TestProgressAcrossMembersEndsNewEverywhere(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	wk := w.twoMemberWork(r, "20", "18")
	w.progress(r, "comix", "b", "17")
	got := w.bookmarks(r)
	if !got["mangadex"].New || !got["comix"].New {
		t.Fatalf("Work Latest 20, Progress 17: new %v/%v, want both new", got["mangadex"].New, got["comix"].New)
	}
	if got["comix"].WorkID == nil || *got["comix"].WorkID != wk {
		t.Fatalf("work_id %v, want %d", got["comix"].WorkID, wk)
	}
	// Read 20 on the member that shows it: neither card is new, though
	// comix/b itself has no Progress at 20 (its Latest is 18).
	w.progress(r, "mangadex", "a", "20")
	got = w.bookmarks(r)
	if got["mangadex"].New || got["comix"].New {
		t.Fatalf("after reading 20 on mangadex: new %v/%v, want neither", got["mangadex"].New, got["comix"].New)
	}
	// comix shows 21: both new again (the Work's Latest moved).
	w.readWith("comix", "b", "21", t0.Add(time.Hour), nil)
	got = w.bookmarks(r)
	if !got["mangadex"].New || !got["comix"].New {
		t.Fatalf("Work Latest 21 over Progress 20: new %v/%v, want both", got["mangadex"].New, got["comix"].New)
	}
}

func TestWorkLatestWithOffsets(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	wk := w.twoMemberWork(r, "120", "20")
	// comix numbers from the volume start: its 20 is the Work's 120.
	w.exec(`UPDATE work_members SET "offset" = 100 WHERE site = 'comix'`)
	w.progress(r, "comix", "b", "20")
	got := w.bookmarks(r)
	if got["mangadex"].New || got["comix"].New {
		t.Fatalf("comix 20 + 100 = mangadex 120, read: new %v/%v, want neither", got["mangadex"].New, got["comix"].New)
	}
	w.readWith("comix", "b", "21", t0.Add(time.Hour), nil)
	got = w.bookmarks(r)
	if !got["mangadex"].New {
		t.Fatal("comix 21 (+100) is above the Work's 120 and the mangadex card is not new")
	}
	_ = wk
}

// TestHandLinkOverridesSharedMembershipInNumbers: a Reader's hand link of
// a shared member to another Work moves it there for them alone: their
// cards count it in the Work they linked it to (offset 0), not in its
// shared Work, while another Reader's cards still count it in the shared
// one. The library and the bookmark list agree (bookmarks).
func TestHandLinkOverridesSharedMembershipInNumbers(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r, r2 := w.reader("1"), w.reader("2")
	wkA := w.twoMemberWork(r, "20", "18") // mangadex/a 20, comix/b 18
	w.bookmark(r2, "comix", "b", t0)
	w.bookmark(r2, "mangadex", "a", t0)
	w.bookmark(r, "weebcentral", "d", t0)
	w.bookmark(r2, "natomanga", "e", t0)
	w.readWith("weebcentral", "d", "50", t0, nil, al("2"))
	w.readWith("natomanga", "e", "52", t0, nil, al("2"))
	wkB := w.workOf("weebcentral", "d")
	if wkB == 0 || wkB == wkA || w.workOf("natomanga", "e") != wkB {
		t.Fatal("d and e did not link into a second Work")
	}
	w.progress(r, "comix", "b", "18")
	w.progress(r2, "comix", "b", "18")
	b := store.SeriesRef{Site: "comix", SeriesID: "b"}
	d := store.SeriesRef{Site: "weebcentral", SeriesID: "d"}
	if got, err := w.st.LinkByHand(w.ctx, r, d, b); err != nil || got != wkB {
		t.Fatalf("hand link of b to d's Work: %d %v, want %d", got, err, wkB)
	}
	got := w.bookmarks(r)
	// Work A for r is mangadex/a alone (Latest 20), on which r read nothing.
	if a := got["mangadex"]; a.WorkID == nil || *a.WorkID != wkA || a.New {
		t.Fatalf("r's mangadex/a card: work %v new %v, want Work %d, not new (r read nothing of A without b)", a.WorkID, a.New, wkA)
	}
	// Work B for r is d 50, e 52 and b 18 (offset 0): Latest 52, Progress 18.
	for _, site := range []string{"comix", "weebcentral"} {
		if c := got[site]; c.WorkID == nil || *c.WorkID != wkB || !c.New {
			t.Fatalf("r's %s card: work %v new %v, want Work %d and new (52 above 18)", site, c.WorkID, c.New, wkB)
		}
	}
	// r2 sees the shared Works: b in A (Latest 20, Progress 18: new).
	got2 := w.bookmarks(r2)
	for _, site := range []string{"comix", "mangadex"} {
		if c := got2[site]; c.WorkID == nil || *c.WorkID != wkA || !c.New {
			t.Fatalf("r2's %s card: work %v new %v, want Work %d and new (20 above 18)", site, c.WorkID, c.New, wkA)
		}
	}
	if e := got2["natomanga"]; e.WorkID == nil || *e.WorkID != wkB || e.New {
		t.Fatalf("r2's natomanga/e card: work %v new %v, want Work %d, not new (r2 read nothing of B)", e.WorkID, e.New, wkB)
	}
	// One Series asked alone (GetBookmark, LibraryEntry) reads the same.
	one, err := w.st.GetBookmark(w.ctx, r, "weebcentral", "d")
	if err != nil || one.WorkID == nil || *one.WorkID != wkB || !one.New {
		t.Fatalf("GetBookmark of d: %+v %v", one, err)
	}
	entry, err := w.st.LibraryEntry(w.ctx, r, "mangadex", "a")
	if err != nil || entry.WorkID == nil || *entry.WorkID != wkA || entry.New {
		t.Fatalf("LibraryEntry of a: %+v %v", entry.Bookmark, err)
	}
	// The library page agrees with Library and ReaderWorks for both
	// Readers, the hand link moving b's card into Work B for r alone.
	libraryPageAgrees(t, w, r, "comix b", "natomanga")
	libraryPageAgrees(t, w, r2, "comix b", "natomanga")
}
