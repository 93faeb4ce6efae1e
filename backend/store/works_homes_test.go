package store_test

import (
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// The tests here hold the Works rules' one homes (works_numbers.go) where
// the older tests do not: each fails when its rule is broken there
// (docs/adr/0022-library-page-in-one-statement.md, "Addendum").

// TestHandLinkCollapsesOnlyTheLinkingReadersNotices: the owed notices a
// hand link collapses are counted over the Work's members as each Reader
// sees them (readerMembersSQL for every Reader owed one): a Reader's hand
// link of two Series leaves another Reader's notices on the same two
// alone, until that Reader links them too (then they are shared members,
// one Work for both).
func TestHandLinkCollapsesOnlyTheLinkingReadersNotices(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r, r2 := w.reader("1"), w.reader("2")
	for _, x := range []int64{r, r2} {
		w.bookmark(x, "mangapill", "p", t0.Add(-time.Hour))
		w.bookmark(x, "weebcentral", "q", t0.Add(-time.Hour))
	}
	for _, s := range [][2]string{{"mangapill", "p"}, {"weebcentral", "q"}} {
		w.read(s[0], s[1], "10", t0)
		w.read(s[0], s[1], "11", t0.Add(time.Hour))
		w.read(s[0], s[1], "12", t0.Add(2*time.Hour))
	}
	owed := func(x int64) int {
		return w.count(`SELECT count(*) FROM reader_notices WHERE reader_id = $1 AND done_at IS NULL`, x)
	}
	p, q := store.SeriesRef{Site: "mangapill", SeriesID: "p"}, store.SeriesRef{Site: "weebcentral", SeriesID: "q"}
	if _, err := w.st.LinkByHand(w.ctx, r, p, q); err != nil {
		t.Fatal(err)
	}
	if a, b := owed(r), owed(r2); a != 2 || b != 4 {
		t.Fatalf("after the first Reader's link: %d and %d owed, want 2 (11 and 12 once) and 4 (the other's untouched)", a, b)
	}
	if _, err := w.st.LinkByHand(w.ctx, r2, p, q); err != nil {
		t.Fatal(err)
	}
	if a, b := owed(r), owed(r2); a != 2 || b != 2 {
		t.Fatalf("after the second Reader's link: %d and %d owed, want 2 each", a, b)
	}
}

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
	if err := w.st.SetSharedMemberOffset(w.ctx, wk, "comix", "b", "0.1"); err != nil {
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

// TestWorkTitleIsTheLatestMembers: a Work's Latest is shown by its member
// with the highest Work number, the first seen of a tie (workTopOrder),
// and the Work's title is that member's; an empty title there falls back
// to the first non-empty member title (workFactsSQL).
func TestWorkTitleIsTheLatestMembers(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	w.bookmark(r, "mangadex", "a", t0.Add(-time.Hour))
	w.bookmark(r, "comix", "b", t0.Add(-time.Hour))
	w.readWith("comix", "b", "20", t0.Add(-time.Minute), nil, al("1")) // seen first: "T b"
	w.readWith("mangadex", "a", "20", t0, nil, al("1"))
	wk := w.workOf("mangadex", "a")
	if wk == 0 || w.workOf("comix", "b") != wk {
		t.Fatal("the two Series did not link")
	}
	check := func(title, site string) {
		t.Helper()
		got, err := w.st.ReaderWork(w.ctx, r, wk, t0)
		if err != nil {
			t.Fatal(err)
		}
		if got.Title != title || got.Latest == nil || got.Latest.Site != site || got.Latest.Number != "20" {
			t.Fatalf("Work %q, Latest %+v: want %q, 20 on %s", got.Title, got.Latest, title, site)
		}
		page, err := w.st.LibraryPage(w.ctx, r, store.LibraryQuery{Sort: store.LibrarySortTitle, Text: title, PerPage: 5})
		if err != nil || len(page.Cards) != 1 || page.Cards[0].WorkID == nil || *page.Cards[0].WorkID != wk {
			t.Fatalf("the library page by the Work's title %q: %+v %v, want its card", title, page.Cards, err)
		}
	}
	check("T b", "comix")
	w.exec(`UPDATE series SET title = '' WHERE site = 'comix'`)
	check("T a", "comix")
}

// TestLibraryPageCountsAHandLinkAtOffsetZero: the library page takes the
// numbers of the members a Reader bookmarks from its own rows
// (seriesOffSQL), and a hand link's offset there is 0, as readerMembersSQL
// has it: a Work read to its Latest on one member is not New for a member
// the Reader linked by hand at the same number.
func TestLibraryPageCountsAHandLinkAtOffsetZero(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	wk := w.twoMemberWork(r, "20", "20")
	w.progress(r, "mangadex", "a", "20")
	w.bookmark(r, "weebcentral", "x", t0.Add(-time.Hour))
	w.readWith("weebcentral", "x", "20", t0, nil)
	a, x := store.SeriesRef{Site: "mangadex", SeriesID: "a"}, store.SeriesRef{Site: "weebcentral", SeriesID: "x"}
	if got, err := w.st.LinkByHand(w.ctx, r, a, x); err != nil || got != wk {
		t.Fatalf("hand link of x to a's Work: %d %v, want %d", got, err, wk)
	}
	got, err := w.st.ReaderWork(w.ctx, r, wk, t0)
	if err != nil || got.New || len(got.Members) != 3 {
		t.Fatalf("Work %+v (%v): want three members, not New", got, err)
	}
	page, err := w.st.LibraryPage(w.ctx, r, store.LibraryQuery{PerPage: 5})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 1 || page.NewCount != 0 || len(page.Cards) != 1 || len(page.Cards[0].Items) != 3 {
		t.Fatalf("page: %d cards, %d New, %+v: want the Work's one card of three bookmarks, not New", page.Total, page.NewCount, page.Cards)
	}
}
