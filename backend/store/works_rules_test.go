package store_test

import (
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// The feed tells a Work's chapter number once, from the member that
// showed it first, not once per member.
func TestFeedTellsWorkNumberOnce(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	w.twoMemberWork(r, "20", "20")
	w.readWith("mangadex", "a", "21", t0.Add(time.Hour), nil)
	w.readWith("comix", "b", "21", t0.Add(2*time.Hour), nil)
	w.readWith("comix", "b", "22", t0.Add(3*time.Hour), nil)
	got, err := w.st.FeedChapters(w.ctx, r, t0, 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Number != "22" || got[1].Number != "21" || got[1].Site != "mangadex" {
		t.Fatalf("feed %+v, want 22 then mangadex's 21, each once", got)
	}
}

// Two Series a Reader links by hand that each already owe a notice of the
// same number leave one.
func TestHandLinkCollapsesOwedNotices(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	w.bookmark(r, "mangapill", "p", t0.Add(-time.Hour))
	w.bookmark(r, "weebcentral", "q", t0.Add(-time.Hour))
	for _, s := range [][2]string{{"mangapill", "p"}, {"weebcentral", "q"}} {
		w.read(s[0], s[1], "10", t0)
		w.read(s[0], s[1], "11", t0.Add(time.Hour))
		w.read(s[0], s[1], "12", t0.Add(2*time.Hour))
	}
	if n := w.count(`SELECT count(*) FROM reader_notices WHERE reader_id = $1 AND done_at IS NULL`, r); n != 4 {
		t.Fatalf("%d owed before the link, want 4", n)
	}
	if _, err := w.st.LinkByHand(w.ctx, r, store.SeriesRef{Site: "mangapill", SeriesID: "p"},
		store.SeriesRef{Site: "weebcentral", SeriesID: "q"}); err != nil {
		t.Fatal(err)
	}
	if n := w.count(`SELECT count(*) FROM reader_notices WHERE reader_id = $1 AND done_at IS NULL`, r); n != 2 {
		t.Fatalf("%d owed after the link, want 2 (11 and 12 once each)", n)
	}
	if n := w.count(`SELECT count(DISTINCT number) FROM reader_notices WHERE reader_id = $1`, r); n != 2 {
		t.Fatalf("%d numbers owed, want 2", n)
	}
	// One of the two Series removed: the hand-made Work is dissolved.
	w.exec(`DELETE FROM series WHERE site = 'weebcentral' AND series_id = 'q'`)
	if n := w.count(`SELECT count(*) FROM work_hand_links`); n != 0 {
		t.Fatalf("%d hand links left in a Work of one Series", n)
	}
}

// A Work left with one member by a shared unlink is dissolved: the member
// is a Series of no Work (no one-member Work shown, no Work number on its
// notices); ids that come later rebuild the same Work, and the unlink
// still holds.
func TestThinWorkDissolved(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	wk := w.twoMemberWork(r, "20", "20")
	w.progress(r, "mangadex", "a", "20")
	w.readWith("mangadex", "a", "21", t0.Add(time.Hour), nil)
	if err := w.st.UnlinkShared(w.ctx, wk, "comix", "b"); err != nil {
		t.Fatal(err)
	}
	if got := w.workOf("mangadex", "a"); got != 0 {
		t.Fatalf("the last member is still in Work %d", got)
	}
	if ws, err := w.st.ReaderWorks(w.ctx, r, t0); err != nil || len(ws) != 0 {
		t.Fatalf("works %+v (%v), want none", ws, err)
	}
	if n := w.count(`SELECT count(*) FROM reader_notices WHERE work_id IS NOT NULL AND done_at IS NULL`); n != 0 {
		t.Fatalf("%d owed notices still carry the dissolved Work", n)
	}
	// Another shared id: the unlinked pair stays apart.
	if _, err := w.st.AddSeriesIDs(w.ctx, []store.SeriesIDs{
		{Site: "mangadex", SeriesID: "a", IDs: []store.ExternalID{{Kind: "mu", Value: "5", Source: store.IDFromSite}}},
		{Site: "comix", SeriesID: "b", IDs: []store.ExternalID{{Kind: "mu", Value: "5", Source: store.IDFromSite}}},
	}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"a", "b"} {
		site := map[string]string{"a": "mangadex", "b": "comix"}[s]
		if got := w.workOf(site, s); got != 0 {
			t.Fatalf("%s/%s linked into Work %d after its unlink", site, s, got)
		}
	}
	// A third Series with the first id rebuilds the same Work around a.
	w.bookmark(r, "mangapill", "c", t0)
	w.readWith("mangapill", "c", "5", t0, nil, al("1"))
	if got := w.workOf("mangapill", "c"); got != wk || w.workOf("mangadex", "a") != wk || w.workOf("comix", "b") != 0 {
		t.Fatalf("c in %d, a in %d, b in %d: want a and c in Work %d, b out", got, w.workOf("mangadex", "a"), w.workOf("comix", "b"), wk)
	}
	// A Series removed leaves its Work thin too.
	w.exec(`DELETE FROM series WHERE site = 'mangapill' AND series_id = 'c'`)
	if got := w.workOf("mangadex", "a"); got != 0 {
		t.Fatalf("a still in Work %d after its only other member was removed", got)
	}
}
