package web_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
	"mangabookmark/backend/web"
)

// seedNewCards gives Reader 2 six New Series with long titles (the
// badge must not be cut by the title's overflow), n0 to n5, 1 to 11
// chapters unread (n5 most), read 1 to 6 minutes ago (n0 last).
func seedNewCards(t testing.TB, f *fixture) {
	t.Helper()
	ctx := context.Background()
	now := admintest.Now
	var series []storetest.SeriesOpts
	var marks []storetest.BookmarkOpts
	var progress []storetest.ProgressOpts
	for i := 0; i < 6; i++ {
		id := fmt.Sprintf("n%d", i)
		seen, read := now.Add(-time.Duration(i+1)*time.Hour), now.Add(-time.Duration(i+1)*time.Minute)
		series = append(series, storetest.SeriesOpts{Site: "mangapill", ID: id, URL: "https://mangapill.test/manga/" + id,
			Title: fmt.Sprintf("A Rather Long Title That Overflows Any Phone's Card Line, Volume %d", i), LatestNumber: fmt.Sprint(20 + i),
			LatestURL: "https://mangapill.test/chapter/" + id, SeenAt: &seen, CheckedAt: &seen})
		marks = append(marks, storetest.BookmarkOpts{ReaderID: 2, Site: "mangapill", SeriesID: id})
		progress = append(progress, storetest.ProgressOpts{ReaderID: 2, Site: "mangapill", SeriesID: id, Number: fmt.Sprint(19 - i), ReadAt: &read})
	}
	storetest.Series(ctx, t, f.st, series...)
	storetest.Bookmarks(ctx, t, f.st, marks...)
	storetest.Progress(ctx, t, f.st, progress...)
}

// seedRefused bookmarks, for Reader 2, a Series on comix (whose Lane
// refuses us in admintest's world) that no Lane has read: no title, no
// chapter, an id that is a number.
func seedRefused(t testing.TB, f *fixture) {
	t.Helper()
	if _, err := f.st.AddBookmark(context.Background(), 2, "comix", "0815", "https://comix.test/title/0815-the-quiet-sea"); err != nil {
		t.Fatal(err)
	}
}

// The Sort select's unread sort puts the most chapters unread first (a
// Work's count in Work numbers among them), ties in the library's order;
// the last-read sort the latest read first.
func TestLibrarySortsByUnreadAndLastRead(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	seedNewCards(t, f)
	seedWork(t, f) // a Work card, 4 unread
	c := f.login(t, f.readerToken)
	b := f.get(t, c, "/?sort=unread").body
	// mangapill/2 is the Work's card (its face, the member bookmarked
	// first): 4 unread in Work numbers, between n2's 5 and n1's 3.
	got := strings.Join(items(b)[:7], " ")
	if want := "mangapill/n5:true mangapill/n4:true mangapill/n3:true mangapill/n2:true mangapill/2:true mangapill/n1:true mangapill/n0:true"; got != want {
		t.Errorf("unread order %s, want %s", got, want)
	}
	if !strings.Contains(b, `data-series-id="2" data-new="true" data-work-id=`) {
		t.Error("mangapill/2's card is not the Work's")
	}
	for _, want := range []string{`<option value="unread" selected>Most unread</option>`, `<option value="last_read">Last read</option>`} {
		if !strings.Contains(b, want) {
			t.Errorf("the Sort select lacks %q", want)
		}
	}
	got = strings.Join(items(f.get(t, c, "/?sort=last_read").body)[:6], " ")
	if want := "mangapill/n0:true mangapill/n1:true mangapill/n2:true mangapill/n3:true mangapill/n4:true mangapill/n5:true"; got != want {
		t.Errorf("last read order %s, want %s", got, want)
	}
	// An unknown sort is the default.
	if a, d := items(f.get(t, c, "/?sort=bogus").body), items(f.get(t, c, "/").body); strings.Join(a, " ") != strings.Join(d, " ") {
		t.Errorf("an unknown sort %v, want the default %v", a, d)
	}
}

// A Series on a Site that refuses us says so, with since when, instead
// of "checking…"; its title is the URL's slug, never the raw id, and its
// cover's initial the title's first letter, not the id's "0".
func TestLibraryRefusingSiteCard(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	seedRefused(t, f)
	c := f.login(t, f.readerToken)
	card := cardOf(f.get(t, c, "/?site=comix").body, "comix", "0815")
	for _, want := range []string{`<span class="failing">comix refuses us since `, `>The Quiet Sea</a>`, `<div class="cover" aria-hidden="true">T</div>`} {
		if !strings.Contains(card, want) {
			t.Errorf("the refused card lacks %q: %s", want, card)
		}
	}
	for _, bad := range []string{"checking…", ">0815<", `aria-hidden="true">0<`} {
		if strings.Contains(card, bad) {
			t.Errorf("the refused card shows %q: %s", bad, card)
		}
	}
}

// An empty library names its ways in, each a link: the userscript, Import
// and, when the server runs it, phone sync.
func TestEmptyLibraryLinksTheWaysIn(t *testing.T) {
	t.Parallel()
	for _, sync := range []bool{false, true} {
		f := newFixtureWith(t, "", func(d *web.Deps) {
			if sync {
				d.SyncKeys = d.Auth.(web.SyncKeys)
			}
		})
		b := f.get(t, f.login(t, f.ownerToken), "/").body // the Owner has no bookmark
		for _, want := range []string{`<a href="/userscript/mangabookmark.user.js">Install the userscript</a>`, `<a href="/import">Import</a>`} {
			if !strings.Contains(b, want) {
				t.Errorf("sync %v: the empty library lacks %q", sync, want)
			}
		}
		if got := strings.Contains(b, `<a href="/settings#phone-sync">Set up phone sync</a>`); got != sync {
			t.Errorf("sync %v: the phone sync link shown %v", sync, got)
		}
	}
	// A library with bookmarks keeps Import one tap away.
	f := newFixture(t, "")
	if b := f.get(t, f.login(t, f.readerToken), "/").body; !strings.Contains(b, `<p class="muted small import-link"><a href="/import">`) {
		t.Error("the library has no Import link outside Add a Series")
	}
}

// The library's cards stay within the page's budget of 1.5 KB a card on
// average (docs/benchmarks.md, "Library HTML per card"), here with seven
// New cards (their badges), a Work's card with a failing member's chip and
// a full time line, and New titles of 70 characters (written four times
// each).
func TestLibraryCardBytes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	seedNewCards(t, f)
	seedTimeLines(t, f)
	seedWork(t, f)
	if err := f.st.UpsertFailure(context.Background(), "mangadex", "w1", "not_found", admintest.Now.Add(-30*time.Hour)); err != nil {
		t.Fatal(err)
	}
	seedRefused(t, f)
	b := f.get(t, f.login(t, f.readerToken), "/").body
	b = b[:strings.LastIndex(b, "</ul>")]
	cards := strings.Split(b, `<li class="item"`)[1:]
	if len(cards) < 10 {
		t.Fatalf("%d cards", len(cards))
	}
	most, total := 0, 0
	for _, c := range cards {
		n := len(`<li class="item"`) + len(c)
		total += n
		if n > most {
			most = n
		}
	}
	if total/len(cards) > 1536 {
		t.Errorf("%d cards of %d bytes on average, over 1.5 KB", len(cards), total/len(cards))
	}
	t.Logf("%d cards, %d bytes each on average, %d at most", len(cards), total/len(cards), most)
}

// The Series page of a Series no Lane has read on a Site that refuses us
// says so, as its card does, not "checking…"; so does the Work page of a
// Work none of whose members has been read, and its refused member's
// state (the other member still reads fine).
func TestRefusedSiteOnSeriesAndWorkPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	seedRefused(t, f)
	c := f.login(t, f.readerToken)
	b := f.get(t, c, "/series/comix/0815").body
	if !strings.Contains(b, `<dd><span class="failing">comix refuses us since `) || strings.Contains(b, "checking…") {
		t.Fatalf("the Series page does not say comix refuses us: %s", b)
	}

	ctx := context.Background()
	storetest.Series(ctx, t, f.st, storetest.SeriesOpts{Site: "mangapill", ID: "q1", URL: "https://mangapill.test/manga/q1", Title: "The Quiet Sea"})
	storetest.Bookmarks(ctx, t, f.st, storetest.BookmarkOpts{ReaderID: 2, Site: "mangapill", SeriesID: "q1"})
	al := []store.ExternalID{{Kind: "al", Value: "40815", Source: store.IDFromSite}}
	if _, err := f.st.AddSeriesIDs(ctx, []store.SeriesIDs{{Site: "comix", SeriesID: "0815", IDs: al}, {Site: "mangapill", SeriesID: "q1", IDs: al}}); err != nil {
		t.Fatal(err)
	}
	id, err := f.st.WorkOf(ctx, "comix", "0815")
	if other, _ := f.st.WorkOf(ctx, "mangapill", "q1"); err != nil || id == 0 || id != other {
		t.Fatalf("the two Series did not link: %d %d %v", id, other, err)
	}
	b = f.get(t, c, fmt.Sprint("/works/", id)).body
	if !strings.Contains(b, `<dt>Latest</dt><dd><span class="failing">comix refuses us since `) || strings.Contains(b, "checking…") {
		t.Fatalf("the Work page does not say comix refuses us: %s", b)
	}
	states := regexp.MustCompile(`data-site="(\w+)"[\s\S]*?<dd class="member-state( trouble)?">([^<]*)</dd>`).FindAllStringSubmatch(b, -1)
	got := map[string]string{}
	for _, s := range states {
		got[s[1]] = s[3]
	}
	if !strings.HasPrefix(got["comix"], "comix refuses us since ") || got["mangapill"] != "reading fine" {
		t.Errorf("member states %q", got)
	}
}
