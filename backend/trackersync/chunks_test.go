package trackersync_test

import (
	"strconv"
	"testing"

	"mangabookmark/backend/trackers"
)

// TestPullReadsAListOf5000 (issue 47): a Reader's list of 5,000 entries
// pulls whole: the bookmark whose media is the 4,990th entry moves, and
// the unmatched entries are listed (cut to the store's bound).
func TestPullReadsAListOf5000(t *testing.T) {
	w := newWorld(t)
	svc := w.service("one")
	r := w.reader("ann")
	entries := make([]trackers.Entry, 5000)
	for i := range entries {
		entries[i] = entry(strconv.Itoa(20000+i), 3, trackers.StatusCurrent)
	}
	entries[4989].Progress = 77
	w.al.AddUser("ann", entries...)
	w.series("mangadex", "late", "", strconv.Itoa(20000+4989))
	w.bookmark(r, "mangadex", "late", "2")
	w.setUp(svc, r, "ann", "")
	if pulled, moved := w.pull(svc); pulled != 1 || moved != 1 {
		t.Fatalf("pulled %d, moved %d; want 1, 1", pulled, moved)
	}
	if n, src := w.progress(r, "mangadex", "late"); n != "77" || src != "anilist" {
		t.Fatalf("Progress %s (%s), want 77 from anilist", n, src)
	}
	if n := w.al.Requests(trackers.KindList); n != 1+10 { // Save's check of the user name, then ten chunks
		t.Fatalf("%d list requests, want 11", n)
	}
}
