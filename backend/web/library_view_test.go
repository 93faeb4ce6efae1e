package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/store/storetest"
)

// seedMany gives Reader 2 n more mangapill bookmarks, "m0".."m{n-1}",
// titled so that the title sort and the date sort disagree.
func seedMany(t *testing.T, f *fixture, n int) {
	t.Helper()
	ctx := context.Background()
	series := make([]storetest.SeriesOpts, n)
	for i := range series {
		id := fmt.Sprintf("m%d", i)
		seen := admintest.Now.Add(-time.Duration(i+1) * time.Minute)
		series[i] = storetest.SeriesOpts{Site: "mangapill", ID: id, Title: fmt.Sprintf("Title %03d", n-i), LatestNumber: "10",
			LatestURL: "https://mangapill.test/chapter/" + id + "-10", SeenAt: &seen, CheckedAt: &seen}
	}
	storetest.Series(ctx, t, f.st, series...)
	for _, s := range series {
		if _, err := f.st.AddBookmark(ctx, 2, "mangapill", s.ID, "https://mangapill.test/series/"+s.ID); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLibraryPagesSortsAndFilters(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	seedMany(t, f, 70) // 74 bookmarks in all: two pages
	c := f.login(t, f.readerToken)
	first := f.get(t, c, "/")
	if got := items(first.body); len(got) != 60 || got[0] != "mangapill/2:true" {
		t.Fatalf("page 1 holds %d cards starting %v, want 60 with the New Chapter first", len(got), got[:1])
	}
	if !strings.Contains(first.body, "1–60 of 74 shown") || !strings.Contains(first.body, `href="/?page=2" rel="next"`) {
		t.Fatalf("page 1's counts or next link are missing")
	}
	second := f.get(t, c, "/?page=2")
	if got := items(second.body); len(got) != 14 || !strings.Contains(second.body, "61–74 of 74 shown") || !strings.Contains(second.body, `href="/" rel="prev"`) {
		t.Fatalf("page 2: %d cards", len(got))
	}
	if got := items(f.get(t, c, "/?page=99").body); len(got) != 14 {
		t.Fatalf("a page past the last shows %d cards, want the last page's 14", len(got))
	}
	// Title sort, case folded: "mangapill title 2" and "3", "Never Read
	// Yet", then "Title 001" (m69), whatever the dates say.
	if got := strings.Join(items(f.get(t, c, "/?sort=title").body)[:5], " "); got != "mangapill/2:true mangapill/3:false mangapill/40:false mangapill/m69:false mangapill/m68:false" {
		t.Fatalf("title sort starts %v", got)
	}
	// Recently updated: the newest Latest first, New or not (m0 appeared a
	// minute before now, mangapill/2 three hours before, so it is not first).
	if got := items(f.get(t, c, "/?sort=updated").body); got[0] != "mangapill/m0:false" || got[1] != "mangapill/m1:false" {
		t.Fatalf("updated sort starts %v", got[:2])
	}
	// Has New: only the one New Chapter, and the filters are kept in the links.
	if got := items(f.get(t, c, "/?new=1").body); len(got) != 1 || got[0] != "mangapill/2:true" {
		t.Fatalf("has-New filter: %v", got)
	}
	if b := f.get(t, c, "/?sort=title&site=mangapill").body; !strings.Contains(b, `href="/?page=2&amp;site=mangapill&amp;sort=title" rel="next"`) {
		t.Fatal("the next link drops the filters")
	}
	// A hand-made link's page number or filter is answered, never an
	// error: a page past any int is the last, a NUL is no filter, bytes
	// that are not UTF-8 match nothing, an unknown sort is the default.
	for p, want := range map[string]int{"/?page=9223372036854775807": 14, "/?page=99999999999999999999": 14, "/?page=-3": 60,
		"/?q=%00": 60, "/?q=%FF%FE": 0, "/?site=%00": 60, "/?site=%FF": 0, "/?sort=%27%3B": 60} {
		if a := f.get(t, c, p); a.code != http.StatusOK || len(items(a.body)) != want {
			t.Errorf("GET %s: %d with %d cards, want 200 with %d", p, a.code, len(items(a.body)), want)
		}
	}
}

func TestLibraryViewIsRemembered(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	if b := f.get(t, c, "/").body; strings.Contains(b, `class="library grid"`) {
		t.Fatal("the default view is the grid")
	}
	if b := f.get(t, c, "/?view=grid").body; !strings.Contains(b, `class="library grid"`) {
		t.Fatal("?view=grid shows no grid")
	}
	if b := f.get(t, c, "/").body; !strings.Contains(b, `class="library grid"`) {
		t.Fatal("the grid was not remembered")
	}
	if b := f.get(t, c, "/?view=list").body; strings.Contains(b, `class="library grid"`) {
		t.Fatal("?view=list still shows the grid")
	}
	if b := f.get(t, c, "/?view=%3Cscript%3E").body; strings.Contains(b, `class="library grid"`) || strings.Contains(b, "<script>") {
		t.Fatal("a hostile view value")
	}
}

// A card counts what is unread when the numbers allow it, does not repeat
// a title that only repeats the number, and continues at the chapter after
// Progress: to pick on the Series page while the Lanes never saw its page,
// at its page once they did.
func TestCardCountsAndContinues(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	// mangapill/2: Progress 8, Latest 12 titled "Chapter 12"; events 9 (no URL), 10, 11, 12.
	storetest.SetSeries(ctx, t, f.st, storetest.SeriesSet{Site: "mangapill", IDs: []string{"2"},
		LatestNumber: "12", LatestTitle: "Chapter 12", LatestURL: "https://mangapill.test/chapter/2-12"})
	var events []storetest.ChapterEventOpts
	for _, n := range []int{9, 10, 11, 12} {
		u := fmt.Sprintf("https://mangapill.test/chapter/2-%d", n)
		if n == 9 {
			u = ""
		}
		events = append(events, storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "2", Number: strconv.Itoa(n), URL: u, SeenAt: storetest.At(admintest.Now)})
	}
	storetest.ChapterEvents(ctx, t, f.st, events...)
	c := f.login(t, f.readerToken)
	b := f.get(t, c, "/").body
	for _, want := range []string{`<span class="badge new">4<span class="vh"> new chapters</span></span>`, `>Ch. 12</a>`, `rel="noreferrer">Continue: pick ch. 9 on mangapill<`} {
		if !strings.Contains(b, want) {
			t.Errorf("library lacks %q", want)
		}
	}
	if strings.Contains(b, `chapter/2-10" rel="noreferrer">Continue`) {
		t.Error("Continue skips chapter 9, whose page no Lane saw")
	}
	storetest.ChapterEvents(ctx, t, f.st, storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "2", Number: "8.5",
		URL: "https://mangapill.test/chapter/2-8.5", SeenAt: storetest.At(admintest.Now)})
	if b := f.get(t, c, "/").body; !strings.Contains(b, `href="https://mangapill.test/chapter/2-8.5" rel="noreferrer">Continue: ch. 8.5<`) {
		t.Error("Continue does not lead to 8.5, seen with its page")
	}
	if strings.Contains(b, "Ch. 12: Chapter 12") {
		t.Error("the title that repeats the number is repeated")
	}
	// A fractional Progress cannot count: "new" (set as the Reader's own
	// correction sets it).
	if err := f.st.SetProgress(ctx, 2, "mangapill", "2", "8.5", "", admintest.Now.Add(-5*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if b := f.get(t, c, "/").body; !strings.Contains(b, `<span class="badge new">new<span class="vh"> chapters</span></span>`) {
		t.Error("a fractional Progress still counts chapters")
	}
}

func TestSeriesPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	// Raw SQL on purpose: the row is the attack. Its javascript: link is
	// one the Site adapters drop (sites.Resolve keeps http(s) links only),
	// so only a forged row holds one; the page must still not link it.
	if _, err := f.st.Pool().Exec(ctx, `INSERT INTO chapter_events (site, series_id, number, title, url, seen_at)
		VALUES ('mangapill', '2', 9, '<b>The Ninth</b>', 'javascript:alert(1)', $1)`, admintest.Now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	c := f.login(t, f.readerToken)
	a := f.get(t, c, "/series/mangapill/2")
	if a.code != http.StatusOK {
		t.Fatalf("series page: %d", a.code)
	}
	for _, want := range []string{`<h1>mangapill title 2 <span class="badge new">1 new</span></h1>`, `action="/library/mangapill/2/progress"`,
		`action="/library/mangapill/2/read"`, `action="/library/mangapill/2/remove"`, `name="back" value="/series/mangapill/2"`,
		"Chapter 9: &lt;b&gt;The Ninth&lt;/b&gt;", `<a href="#" rel="noreferrer noopener">Chapter 9`} {
		if !strings.Contains(a.body, want) {
			t.Errorf("series page lacks %q", want)
		}
	}
	// Another Reader's Series, an unknown one: 404; no session: to the login.
	if a := f.get(t, f.login(t, f.ownerToken), "/series/mangapill/2"); a.code != http.StatusNotFound {
		t.Errorf("the Owner opened Reader 2's Series page: %d", a.code)
	}
	if a := f.get(t, c, "/series/mangapill/999"); a.code != http.StatusNotFound {
		t.Errorf("unknown Series: %d", a.code)
	}
	if a := f.get(t, f.client(t), "/series/mangapill/2"); a.code != http.StatusSeeOther {
		t.Errorf("no session: %d", a.code)
	}
	// Its forms return to it; a foreign or odd "back" returns to the library.
	tok := f.csrf(t, c, "/series/mangapill/2")
	for back, want := range map[string]string{"/series/mangapill/2": "/series/mangapill/2", "//evil.example/": "/",
		"https://evil.example/": "/", "/series/x\r\nSet-Cookie: a=b": "/", "/?page=2": "/?page=2", "/admin": "/"} {
		a := f.postForm(t, c, "/library/mangapill/2/progress", url.Values{"csrf": {tok}, "number": {"8"}, "back": {back}})
		if a.code != http.StatusSeeOther || a.header.Get("Location") != want {
			t.Errorf("back %q: %d to %q, want %q", back, a.code, a.header.Get("Location"), want)
		}
	}
}
