package store_test

import (
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// Epochs (migration 0015, docs/adr/0021-works-link-by-ids.md): a number a
// member showed before the Work's membership last changed was not told to
// the other members' Readers; it is told to them when their own Site
// shows it, and to nobody twice.

// owedOf counts the notices owed to a Reader, in any state.
func (w *noticeWorld) owedOf(reader int64) int {
	w.t.Helper()
	return w.count(`SELECT count(*) FROM reader_notices WHERE reader_id = $1`, reader)
}

// joinedMax answers a member's joined_max as text ("" when NULL).
func (w *noticeWorld) joinedMax(site, id string) string {
	w.t.Helper()
	var v *string
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT joined_max::text FROM work_members WHERE site = $1 AND series_id = $2`,
		site, id).Scan(&v); err != nil {
		w.t.Fatalf("joined_max of %s/%s: %v", site, id, err)
	}
	if v == nil {
		return ""
	}
	return *v
}

// twoUnlinked stores mangadex/a and comix/b (when no bookmark has yet)
// and reads both at 100, ids not yet known.
func (w *noticeWorld) twoUnlinked() {
	w.t.Helper()
	w.exec(`INSERT INTO series (site, series_id, url) VALUES
		('mangadex', 'a', 'https://mangadex.example/a'), ('comix', 'b', 'https://comix.example/b')
		ON CONFLICT DO NOTHING`)
	w.read("mangadex", "a", "100", t0)
	w.read("comix", "b", "100", t0)
}

// The hole: mangadex shows 101 before the ids link it with comix; when
// comix shows 101 the Reader who bookmarks only comix is told, once, and
// the Readers told by mangadex are not told again.
func TestWorkChapterBeforeLinkToldToOtherMember(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	onlyA, onlyB, both := w.reader("1"), w.reader("2"), w.reader("3")
	w.bookmark(onlyA, "mangadex", "a", t0.Add(-time.Hour))
	w.bookmark(onlyB, "comix", "b", t0.Add(-time.Hour))
	w.bookmark(both, "mangadex", "a", t0.Add(-time.Hour))
	w.bookmark(both, "comix", "b", t0.Add(-time.Hour))
	w.twoUnlinked()
	if got := w.read("mangadex", "a", "101", t0.Add(time.Hour)); got.Owed != 2 {
		t.Fatalf("mangadex 101 before the link: owed %d, want 2 (its own Readers)", got.Owed)
	}
	// Both Sites' pages name the same AniList id: they link (set-based).
	if _, err := w.st.AddSeriesIDs(w.ctx, []store.SeriesIDs{
		{Site: "mangadex", SeriesID: "a", IDs: []store.ExternalID{{Kind: "al", Value: "1", Source: store.IDFromSite}}},
		{Site: "comix", SeriesID: "b", IDs: []store.ExternalID{{Kind: "al", Value: "1", Source: store.IDFromSite}}},
	}); err != nil {
		t.Fatal(err)
	}
	if wk := w.workOf("mangadex", "a"); wk == 0 || w.workOf("comix", "b") != wk {
		t.Fatal("the shared id did not link the two Series")
	}
	if a, b := w.joinedMax("mangadex", "a"), w.joinedMax("comix", "b"); a != "101" || b != "100" {
		t.Fatalf("joined_max a %q b %q, want each Series' highest at the link (101, 100)", a, b)
	}
	if got := w.read("comix", "b", "101", t0.Add(2*time.Hour)); got.Owed != 1 {
		t.Fatalf("comix 101 after the link: owed %d, want 1 (the comix-only Reader)", got.Owed)
	}
	for _, c := range []struct {
		reader int64
		want   int
	}{{onlyA, 1}, {onlyB, 1}, {both, 1}} {
		if n := w.owedOf(c.reader); n != c.want {
			t.Errorf("Reader %d is owed %d notices of 101, want %d", c.reader, n, c.want)
		}
	}
	if n := w.count(`SELECT count(*) FROM reader_notices WHERE reader_id = $1 AND site = 'comix' AND work_number = 101`, onlyB); n != 1 {
		t.Error("the comix-only Reader's notice is not the Work's 101 on their comix bookmark")
	}
	// The next number is shown inside the Work: told once, as before.
	if got := w.read("comix", "b", "102", t0.Add(3*time.Hour)); got.Owed != 3 {
		t.Fatalf("comix 102: owed %d, want 3 (every Reader)", got.Owed)
	}
	if got := w.read("mangadex", "a", "102", t0.Add(4*time.Hour)); got.Owed != 0 {
		t.Fatalf("mangadex 102 after comix: owed %d, want 0", got.Owed)
	}
}

// A Reader who bookmarks comix after mangadex showed 101 (before the
// link) and before comix shows it is told when comix shows it: nobody
// told them and it is out after their bookmark. A Reader who bookmarked
// both after mangadex's 101 is not: it was out on their mangadex
// bookmark before they made it (no backfill).
func TestWorkChapterBeforeLinkLateBookmark(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	lateB, lateBoth := w.reader("1"), w.reader("2")
	w.twoUnlinked()
	w.read("mangadex", "a", "101", t0.Add(time.Hour))
	w.bookmark(lateB, "comix", "b", t0.Add(90*time.Minute))
	w.bookmark(lateBoth, "mangadex", "a", t0.Add(90*time.Minute))
	w.bookmark(lateBoth, "comix", "b", t0.Add(90*time.Minute))
	w.readWith("mangadex", "a", "101", t0.Add(2*time.Hour), nil, al("1"))
	w.readWith("comix", "b", "100", t0.Add(2*time.Hour), nil, al("1"))
	if wk := w.workOf("mangadex", "a"); wk == 0 || w.workOf("comix", "b") != wk {
		t.Fatal("the page ids did not link the two Series")
	}
	if got := w.read("comix", "b", "101", t0.Add(3*time.Hour)); got.Owed != 1 {
		t.Fatalf("comix 101: owed %d, want 1 (the Reader who bookmarked comix after mangadex's 101)", got.Owed)
	}
	if n := w.owedOf(lateB); n != 1 {
		t.Errorf("the late comix Reader is owed %d, want 1", n)
	}
	if n := w.owedOf(lateBoth); n != 0 {
		t.Errorf("the Reader whose mangadex bookmark is newer than its 101 is owed %d, want 0", n)
	}
}

// Steady state, after a link made when one member was ahead: the number
// the slower member catches up on is told to its own Readers once; the
// numbers shown after are told once per Reader, from the first member.
func TestWorkEpochSteadyToldOnce(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	onlyA, onlyB, both := w.reader("1"), w.reader("2"), w.reader("3")
	w.bookmark(onlyA, "mangadex", "a", t0.Add(-time.Hour))
	w.bookmark(onlyB, "comix", "b", t0.Add(-time.Hour))
	w.bookmark(both, "mangadex", "a", t0.Add(-time.Hour))
	w.bookmark(both, "comix", "b", t0.Add(-time.Hour))
	w.twoUnlinked()
	w.read("mangadex", "a", "101", t0.Add(time.Hour))
	w.readWith("mangadex", "a", "101", t0.Add(2*time.Hour), nil, al("1"))
	w.readWith("comix", "b", "100", t0.Add(2*time.Hour), nil, al("1"))
	w.read("comix", "b", "101", t0.Add(3*time.Hour))
	for i, n := range []string{"102", "103", "104"} {
		at := t0.Add(time.Duration(4+i) * time.Hour)
		first, second := "mangadex", "comix"
		if i%2 == 1 {
			first, second = second, first
		}
		id := map[string]string{"mangadex": "a", "comix": "b"}
		if got := w.read(first, id[first], n, at); got.Owed != 3 {
			t.Fatalf("%s shows %s first: owed %d, want 3", first, n, got.Owed)
		}
		if got := w.read(second, id[second], n, at.Add(30*time.Minute)); got.Owed != 0 {
			t.Fatalf("%s shows %s second: owed %d, want 0", second, n, got.Owed)
		}
	}
	for _, r := range []int64{onlyA, onlyB, both} {
		if n := w.owedOf(r); n != 4 {
			t.Errorf("Reader %d is owed %d notices, want 4 (101 to 104, once each)", r, n)
		}
	}
}

// A merge: Work {mangapill c, weebcentral d} showed 101 before it merged
// into Work {mangadex a, comix b}; the first side's Readers are told 101
// when their Site shows it, the second side's are not told again, and no
// member showing 101 later tells anyone.
func TestWorkMergeTellsEachSideOnce(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	ra, rb, rc, rd := w.reader("a"), w.reader("b"), w.reader("c"), w.reader("d")
	for r, s := range map[int64][2]string{ra: {"mangadex", "a"}, rb: {"comix", "b"}, rc: {"mangapill", "c"}, rd: {"weebcentral", "d"}} {
		w.bookmark(r, s[0], s[1], t0.Add(-time.Hour))
	}
	w.readWith("mangadex", "a", "100", t0, nil, al("1"))
	w.readWith("comix", "b", "100", t0, nil, al("1"))
	w.readWith("mangapill", "c", "100", t0, nil, mu("2"))
	w.readWith("weebcentral", "d", "100", t0, nil, mu("2"))
	first, second := w.workOf("mangadex", "a"), w.workOf("mangapill", "c")
	if first == 0 || second == 0 || first == second {
		t.Fatalf("want two Works before the merge, have %d and %d", first, second)
	}
	if got := w.read("mangapill", "c", "101", t0.Add(time.Hour)); got.Owed != 2 {
		t.Fatalf("mangapill 101 before the merge: owed %d, want 2 (its Work's Readers)", got.Owed)
	}
	// comix's page names the second Work's id: the Works merge.
	w.readWith("comix", "b", "100", t0.Add(2*time.Hour), nil, al("1"), mu("2"))
	merged := w.workOf("mangadex", "a")
	for _, s := range [][2]string{{"comix", "b"}, {"mangapill", "c"}, {"weebcentral", "d"}} {
		if w.workOf(s[0], s[1]) != merged {
			t.Fatalf("%s/%s is not in the merged Work", s[0], s[1])
		}
	}
	if c := w.joinedMax("mangapill", "c"); c != "101" {
		t.Fatalf("the moved member's joined_max is %q, want 101 (its highest at the merge)", c)
	}
	if got := w.read("mangadex", "a", "101", t0.Add(3*time.Hour)); got.Owed != 2 {
		t.Fatalf("mangadex 101 after the merge: owed %d, want 2 (the first Work's Readers)", got.Owed)
	}
	if got := w.read("weebcentral", "d", "101", t0.Add(4*time.Hour)); got.Owed != 0 {
		t.Fatalf("weebcentral 101 after the merge: owed %d, want 0", got.Owed)
	}
	if got := w.read("comix", "b", "101", t0.Add(5*time.Hour)); got.Owed != 0 {
		t.Fatalf("comix 101 after the merge: owed %d, want 0", got.Owed)
	}
	for _, r := range []int64{ra, rb, rc, rd} {
		if n := w.owedOf(r); n != 1 {
			t.Errorf("Reader %d is owed %d notices of 101, want 1", r, n)
		}
	}
}

// No backfill: a Reader who bookmarked comix after comix showed 101 is not
// told 101 when mangadex shows it after the link; the mangadex Reader,
// whom nobody told, is.
func TestWorkEpochNoBackfill(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	onlyA, lateB := w.reader("1"), w.reader("2")
	w.bookmark(onlyA, "mangadex", "a", t0.Add(-time.Hour))
	w.twoUnlinked()
	w.read("comix", "b", "101", t0.Add(time.Hour))
	w.bookmark(lateB, "comix", "b", t0.Add(90*time.Minute))
	w.readWith("mangadex", "a", "100", t0.Add(2*time.Hour), nil, al("1"))
	w.readWith("comix", "b", "101", t0.Add(2*time.Hour), nil, al("1"))
	if got := w.read("mangadex", "a", "101", t0.Add(3*time.Hour)); got.Owed != 1 {
		t.Fatalf("mangadex 101 after the link: owed %d, want 1 (the mangadex Reader)", got.Owed)
	}
	if n := w.owedOf(lateB); n != 0 {
		t.Errorf("the Reader whose comix bookmark is newer than its 101 is owed %d, want 0", n)
	}
	if n := w.owedOf(onlyA); n != 1 {
		t.Errorf("the mangadex Reader is owed %d, want 1", n)
	}
}

// A hand link a second Reader confirms makes shared members, which start
// an epoch like an id link: mangapill's Reader is told the chapter
// mangadex showed before, when mangapill shows it; the Readers of
// mangadex are not told it again.
func TestWorkEpochHandLinkConfirmed(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r1, r2, onlyC := w.reader("1"), w.reader("2"), w.reader("3")
	for _, r := range []int64{r1, r2} {
		w.bookmark(r, "mangadex", "a", t0.Add(-time.Hour))
		w.bookmark(r, "mangapill", "c", t0.Add(-time.Hour))
	}
	w.bookmark(onlyC, "mangapill", "c", t0.Add(-time.Hour))
	w.read("mangadex", "a", "20", t0)
	w.read("mangapill", "c", "18", t0)
	a, c := store.SeriesRef{Site: "mangadex", SeriesID: "a"}, store.SeriesRef{Site: "mangapill", SeriesID: "c"}
	for _, r := range []int64{r1, r2} {
		if _, err := w.st.LinkByHand(w.ctx, r, a, c); err != nil {
			t.Fatal(err)
		}
	}
	if wk := w.workOf("mangadex", "a"); wk == 0 || w.workOf("mangapill", "c") != wk {
		t.Fatal("the confirmed hand link made no shared Work")
	}
	if ja, jc := w.joinedMax("mangadex", "a"), w.joinedMax("mangapill", "c"); ja != "20" || jc != "18" {
		t.Fatalf("joined_max a %q c %q, want each Series' highest at the confirmation (20, 18)", ja, jc)
	}
	if got := w.read("mangapill", "c", "19", t0.Add(time.Hour)); got.Owed != 1 {
		t.Fatalf("mangapill 19 under mangadex's 20 shown before the link: owed %d, want 1 (the mangapill-only Reader)", got.Owed)
	}
	for _, r := range []int64{r1, r2} {
		if n := w.owedOf(r); n != 0 {
			t.Errorf("Reader %d, whose mangadex showed 20 before, is owed %d, want 0", r, n)
		}
	}
}
