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
