package store_test

import (
	"testing"
	"time"
)

// TestWorkContinueInExactWorkNumbers: a Work's Continue is the first
// chapter past the Reader's Progress on the Work (in Work numbers) whose
// page a Lane saw on a member they bookmark, computed in exact numbers: a
// member at offset 0.1 showing 8.2 is the Work's 8.3 (in float64, the
// card once said 8.299999999999999), and a member with no Progress of its
// own counts (the Work's Progress is what is past). No Continue when the
// Work is not New.
func TestWorkContinueInExactWorkNumbers(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	wk := w.twoMemberWork(r, "10", "8") // the baselines: no Chapter Events yet
	if err := w.st.SetMemberOffset(w.ctx, wk, "comix", "b", "0.1"); err != nil {
		t.Fatal(err)
	}
	w.readWith("comix", "b", "8.2", t0.Add(time.Hour), nil)
	w.readWith("comix", "b", "8.5", t0.Add(2*time.Hour), nil)
	w.readWith("mangadex", "a", "11", t0.Add(3*time.Hour), nil)
	w.progress(r, "mangadex", "a", "8")
	steps := []struct {
		site, id, read string // a Progress set before the step ("" none)
		number, url    string
	}{
		{"", "", "", "8.3", "https://comix.example/b/8.2"},
		{"comix", "b", "8.4", "8.6", "https://comix.example/b/8.5"},
		{"comix", "b", "8.5", "11", "https://mangadex.example/a/11"},
		{"mangadex", "a", "11", "", ""}, // read up to the Latest: not New
	}
	for i, s := range steps {
		if s.site != "" {
			w.progress(r, s.site, s.id, s.read)
		}
		got, err := w.st.ReaderWork(w.ctx, r, wk, t0.Add(4*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if got.ContinueNumber != s.number || got.ContinueURL != s.url {
			t.Fatalf("step %d (Progress %s): Continue %q %q, want %q %q", i, got.ProgressNumber, got.ContinueNumber, got.ContinueURL, s.number, s.url)
		}
		if got.New != (s.number != "") {
			t.Fatalf("step %d: New %v", i, got.New)
		}
	}
}
