package store_test

import (
	"errors"
	"testing"

	"mangabookmark/backend/store"
)

// A correction on the Work is carried to every member the Reader
// bookmarks, in each member's numbers: the Work's Progress is then exactly
// the number asked, lower than before too; forward only moves it up.
func TestSetWorkProgressCarriesAcrossMembers(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r, other := w.reader("1"), w.reader("2")
	wk := w.twoMemberWork(r, "120", "20")
	if err := w.st.SetSharedMemberOffset(w.ctx, wk, "comix", "b", "100"); err != nil {
		t.Fatal(err)
	}
	w.progress(r, "mangadex", "a", "119")
	progress := func() (string, string, string) {
		t.Helper()
		got, err := w.st.ReaderWork(w.ctx, r, wk, t0)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := w.st.GetProgress(w.ctx, r, "mangadex", "a")
		b, _ := w.st.GetProgress(w.ctx, r, "comix", "b")
		return got.ProgressNumber, a.Number, b.Number
	}
	if err := w.st.SetWorkProgress(w.ctx, r, wk, "110", false, t0); err != nil {
		t.Fatal(err)
	}
	if wp, a, b := progress(); wp != "110" || a != "110" || b != "10" {
		t.Fatalf("after a correction to 110: Work %s, mangadex %s, comix %s; want 110, 110, 10 (offset 100)", wp, a, b)
	}
	if err := w.st.SetWorkProgress(w.ctx, r, wk, "105", true, t0); err != nil {
		t.Fatal(err)
	}
	if wp, _, _ := progress(); wp != "110" {
		t.Fatalf("forward only moved the Work back to %s", wp)
	}
	if err := w.st.SetWorkProgress(w.ctx, r, wk, "120", true, t0); err != nil {
		t.Fatal(err)
	}
	if wp, a, b := progress(); wp != "120" || a != "120" || b != "20" {
		t.Fatalf("mark read: Work %s, mangadex %s, comix %s; want 120, 120, 20", wp, a, b)
	}
	if err := w.st.SetWorkProgress(w.ctx, other, wk, "1", false, t0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a Reader with no bookmark in the Work: %v, want ErrNotFound", err)
	}
}
