package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/store/storetest"
)

// seedUpdates gives the fixture's Reader (2) Chapter Events on their
// library (seedLibrary: bookmarks made a day before admintest.Now):
// mangapill/2's 9 three hours ago (Progress 8: unread) and 8.5 twenty
// hours ago (yesterday, UTC), mangapill/3's 20 two hours ago (read), and
// weebcentral/1's 5 ten days ago, before the bookmark (never shown).
func seedUpdates(t testing.TB, f *fixture) {
	t.Helper()
	now := admintest.Now
	storetest.ChapterEvents(context.Background(), t, f.st,
		storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "2", Number: "9", Title: "The Ninth", URL: "https://mangapill.test/chapter/2-9", SeenAt: storetest.At(now.Add(-3 * time.Hour))},
		storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "2", Number: "8.5", Title: "Chapter 8.5", URL: "https://mangapill.test/chapter/2-8.5", SeenAt: storetest.At(now.Add(-20 * time.Hour))},
		storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "3", Number: "20", URL: "https://mangapill.test/chapter/3-20", SeenAt: storetest.At(now.Add(-2 * time.Hour))},
		storetest.ChapterEventOpts{Site: "weebcentral", SeriesID: "1", Number: "5", URL: "https://weebcentral.test/chapter/1-5", SeenAt: storetest.At(now.Add(-10 * 24 * time.Hour))})
}

// rowRE reads an Updates row's hooks: its anchor, Site, id and New.
var rowRE = regexp.MustCompile(`<li class="item" id="(u\d+)" data-site="([^"]+)" data-series-id="([^"]+)"(?: data-work-id="\d+")? data-new="(true|false)">`)

// updateRows lists the page's rows as "site/id:new".
func updateRows(body string) []string {
	var out []string
	for _, m := range rowRE.FindAllStringSubmatch(body, -1) {
		out = append(out, m[2]+"/"+m[3]+":"+m[4])
	}
	return out
}

func TestUpdatesPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	seedUpdates(t, f)
	c := f.login(t, f.readerToken)
	a := f.get(t, c, "/updates")
	if a.code != http.StatusOK {
		t.Fatalf("GET /updates: %d %s", a.code, a.body)
	}
	if got := strings.Join(updateRows(a.body), " "); got != "mangapill/3:false mangapill/2:true mangapill/2:true" {
		t.Fatalf("rows: %s", got)
	}
	for _, want := range []string{
		`<title>Updates · mangabookmark</title>`,
		`<a href="/updates" aria-current="page">Updates</a>`,
		`<h2 id="d-2026-11-30">Today</h2>`, `<h2 id="d-2026-11-29">Yesterday</h2>`,
		`<a class="open" href="/series/mangapill/2">`,
		`Ch. 9: The Ninth</a> · <time datetime="2026-11-30T09:00:00Z" title="2026-11-30 09:00 UTC">3 hours ago</time> · mangapill`,
		`Ch. 8.5</a>`, // a title that only repeats the number is left out
		`<span class="muted small read">✓ read</span>`,
		`aria-label="Mark read: mangapill title 2, up to chapter 9"`,
		`days in UTC`,
	} {
		if !strings.Contains(a.body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(a.body, "weebcentral") {
		t.Error("a chapter from before the bookmark is shown")
	}
	if strings.Contains(a.body, `aria-current="page">Library`) || strings.Contains(a.body, `>Notices</a>`) {
		t.Error("the nav marks another page current, or still says Notices")
	}
	// The nav on the settings page, now titled Settings (both paths).
	for _, path := range []string{"/settings", "/notices"} {
		s := f.get(t, c, path)
		if !strings.Contains(s.body, "<title>Settings · mangabookmark</title>") || !strings.Contains(s.body, "<h1>Settings</h1>") ||
			!strings.Contains(s.body, `<a href="/settings" aria-current="page">Settings</a>`) {
			t.Errorf("%s is not titled Settings or the nav does not mark it", path)
		}
	}
	lib := f.get(t, c, "/")
	for _, want := range []string{`<a href="/" aria-current="page">Library</a>`, `<a href="/updates">Updates</a>`, `<a href="/import">Import</a>`, `<a href="/settings">Settings</a>`} {
		if !strings.Contains(lib.body, want) {
			t.Errorf("the library's nav lacks %s", want)
		}
	}
	if imp := f.get(t, c, "/import"); !strings.Contains(imp.body, `<a href="/import" aria-current="page">Import</a>`) {
		t.Error("the import page's nav does not mark it")
	}
}

// Mark read from an Updates page returns to that page, at the row, and
// moves Progress forward to that chapter only.
func TestUpdatesMarkRead(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	seedUpdates(t, f)
	c := f.login(t, f.readerToken)
	first := f.get(t, c, "/updates")
	csrf := csrfField.FindStringSubmatch(first.body)[1]
	m := rowRE.FindAllStringSubmatch(first.body, -1)
	older := m[len(m)-1][1] // 8.5, yesterday
	back := "/updates?before=1764496800000000.99#" + older
	a := f.postForm(t, c, "/updates/read", url.Values{"csrf": {csrf}, "site": {"mangapill"}, "series_id": {"2"}, "number": {"8.5"}, "back": {back}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/updates?before=1764496800000000.99&done=read#"+older {
		t.Fatalf("mark read: %d %q", a.code, a.header.Get("Location"))
	}
	if p, _ := f.st.GetProgress(context.Background(), 2, "mangapill", "2"); p.Number != "8.5" {
		t.Fatalf("progress after marking 8.5: %+v", p)
	}
	page := f.get(t, c, "/updates?done=read")
	if got := strings.Join(updateRows(page.body), " "); got != "mangapill/3:false mangapill/2:true mangapill/2:false" {
		t.Fatalf("rows after marking 8.5: %s", got)
	}
	if !strings.Contains(page.body, `role="status"`) {
		t.Error("no word of what the form did")
	}
	// Forward only: marking 8.5 again after 9 leaves 9.
	f.postForm(t, c, "/updates/read", url.Values{"csrf": {csrf}, "site": {"mangapill"}, "series_id": {"2"}, "number": {"9"}, "back": {"/updates"}})
	f.postForm(t, c, "/updates/read", url.Values{"csrf": {csrf}, "site": {"mangapill"}, "series_id": {"2"}, "number": {"8.5"}, "back": {"/updates"}})
	if p, _ := f.st.GetProgress(context.Background(), 2, "mangapill", "2"); p.Number != "9" {
		t.Fatalf("progress went back: %+v", p)
	}
}

// Mark read on a Work's row marks the Work read up to that number, on the
// member the Reader bookmarks, in Work numbers.
func TestUpdatesMarkReadWork(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	work := seedWork(t, f) // mangapill/2 (Progress 8) and mangadex/w1, whose 12 came an hour ago
	c := f.login(t, f.readerToken)
	page := f.get(t, c, "/updates")
	if !strings.Contains(page.body, `data-work-id=`) || !strings.Contains(page.body, `<input type="hidden" name="work" value="`) {
		t.Fatalf("no Work row: %s", updateRows(page.body))
	}
	csrf := csrfField.FindStringSubmatch(page.body)[1]
	a := f.postForm(t, c, "/updates/read", url.Values{"csrf": {csrf}, "work": {itoa(work)}, "number": {"12"}, "back": {"/updates"}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/updates?done=read" {
		t.Fatalf("mark the Work read: %d %q", a.code, a.header.Get("Location"))
	}
	for _, s := range []struct{ site, id string }{{"mangapill", "2"}, {"mangadex", "w1"}} {
		if p, _ := f.st.GetProgress(context.Background(), 2, s.site, s.id); p.Number != "12" {
			t.Errorf("%s/%s progress after the Work's Mark read: %+v", s.site, s.id, p)
		}
	}
}

// Attack: forged Mark read forms change nothing of anyone's, a foreign
// back goes to /updates, and a made-up cursor is a 400.
func TestUpdatesRefusesHostileInput(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	seedUpdates(t, f)
	ctx := context.Background()
	storetest.Series(ctx, t, f.st, storetest.SeriesOpts{Site: "mangadex", ID: "owners", Title: "The Owner's"})
	storetest.Bookmarks(ctx, t, f.st, storetest.BookmarkOpts{ReaderID: 1, Site: "mangadex", SeriesID: "owners"})
	ownerWork := storetest.Works(ctx, t, f.st, storetest.WorkOpts{Members: []storetest.MemberOpts{{Site: "mangadex", SeriesID: "owners"}, {Site: "weebcentral", SeriesID: "7"}}})[0]
	c := f.login(t, f.readerToken)
	csrf := f.csrf(t, c, "/updates")
	post := func(form url.Values) answer {
		if _, ok := form["csrf"]; !ok {
			form.Set("csrf", csrf)
		}
		return f.postForm(t, c, "/updates/read", form)
	}
	for _, tc := range []struct {
		form url.Values
		code int
	}{
		{url.Values{"site": {"mangapill"}, "series_id": {"2"}, "number": {"abc"}}, 400},
		{url.Values{"site": {"mangapill"}, "series_id": {"2"}, "number": {"-1"}}, 400},
		{url.Values{"site": {"mangapill"}, "series_id": {"2"}, "number": {""}}, 400},
		{url.Values{"site": {"mangapill"}, "series_id": {"2"}, "number": {"1e9"}}, 400},
		{url.Values{"work": {"x"}, "number": {"9"}}, 400},
		{url.Values{"work": {"-3"}, "number": {"9"}}, 400},
		{url.Values{"work": {"99999999999999999999"}, "number": {"9"}}, 400},
		{url.Values{"work": {itoa(ownerWork)}, "number": {"9"}}, 404},                     // the Owner's Work
		{url.Values{"site": {"mangadex"}, "series_id": {"owners"}, "number": {"9"}}, 404}, // the Owner's bookmark
		{url.Values{"site": {"nosite"}, "series_id": {"2"}, "number": {"9"}}, 404},
		{url.Values{"site": {"mangapill"}, "series_id": {"2"}, "number": {"9"}, "csrf": {"forged"}}, 403},
	} {
		if a := post(tc.form); a.code != tc.code {
			t.Errorf("%v: %d, want %d", tc.form, a.code, tc.code)
		}
	}
	if n := countRows(t, f, `SELECT count(*) FROM progress WHERE reader_id = 1`); n != 0 {
		t.Fatalf("the Owner has %d Progress rows after the forged forms", n)
	}
	if p, _ := f.st.GetProgress(ctx, 2, "mangapill", "2"); p.Number != "8" {
		t.Fatalf("a refused form moved Progress: %+v", p)
	}
	for _, back := range []string{"https://evil.example/updates", "//evil.example/updates", "/\\evil.example", "/", "/updates/../admin",
		"/updates\r\nLocation: https://evil.example", "javascript:alert(1)", "/updates?before=evil#u1\"><script>", "/updates#javascript:x"} {
		a := post(url.Values{"site": {"mangapill"}, "series_id": {"3"}, "number": {"1"}, "back": {back}})
		if loc := a.header.Get("Location"); a.code != http.StatusSeeOther || loc != "/updates?done=read" {
			t.Errorf("back %q: %d to %q, want /updates?done=read", back, a.code, loc)
		}
	}
	for _, q := range []string{"before=abc", "before=1", "before=-1.2", "before=1.2&before=3.4", "before=" + strings.Repeat("9", 500) + ".1", "before="} {
		if a := f.get(t, c, "/updates?"+q); a.code != http.StatusBadRequest || !strings.Contains(a.body, "Not a page of Updates") {
			t.Errorf("?%.40s: %d", q, a.code)
		}
	}
	// Without a session the page and its form send the browser to log in.
	anon := f.client(t)
	if a := f.get(t, anon, "/updates"); a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
		t.Errorf("GET /updates without a session: %d %q", a.code, a.header.Get("Location"))
	}
	if a := f.postForm(t, anon, "/updates/read", url.Values{"csrf": {csrf}, "site": {"mangapill"}, "series_id": {"2"}, "number": {"9"}}); a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
		t.Errorf("POST /updates/read without a session: %d %q", a.code, a.header.Get("Location"))
	}
	// Another session's csrf (the Owner's) opens nothing.
	ownerCSRF := f.csrf(t, f.login(t, f.ownerToken), "/updates")
	if a := post(url.Values{"csrf": {ownerCSRF}, "site": {"mangapill"}, "series_id": {"2"}, "number": {"9"}}); a.code != http.StatusForbidden {
		t.Errorf("another session's csrf: %d", a.code)
	}
	if p, _ := f.st.GetProgress(ctx, 2, "mangapill", "2"); p.Number != "8" {
		t.Fatalf("a refused form moved Progress: %+v", p)
	}
}

func countRows(t *testing.T, f *fixture, q string) int {
	t.Helper()
	var n int
	if err := f.st.Pool().QueryRow(context.Background(), q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Pages of Updates: 50 rows, an Older link by cursor, and on the older
// page a link back to the newest; Mark read there returns to that page.
func TestUpdatesPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	var evs []storetest.ChapterEventOpts
	for i := range 55 {
		evs = append(evs, storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "3", Number: strconv.Itoa(21 + i),
			SeenAt: storetest.At(admintest.Now.Add(-time.Duration(i+1) * time.Minute))})
	}
	storetest.ChapterEvents(context.Background(), t, f.st, evs...)
	c := f.login(t, f.readerToken)
	first := f.get(t, c, "/updates")
	if n := len(updateRows(first.body)); n != 50 {
		t.Fatalf("the first page holds %d rows, want 50", n)
	}
	m := regexp.MustCompile(`<a href="(/updates\?before=[0-9.]+)" rel="next">Older →</a>`).FindStringSubmatch(first.body)
	if m == nil || strings.Contains(first.body, "← Newest") {
		t.Fatal("the first page has no Older link, or links to the newest")
	}
	older := f.get(t, c, m[1])
	if n := len(updateRows(older.body)); n != 5 || !strings.Contains(older.body, `<a href="/updates">← Newest</a>`) || strings.Contains(older.body, "Older →") {
		t.Fatalf("the older page: %d rows, or its links are wrong", n)
	}
	if !strings.Contains(older.body, `name="back" value="`+strings.ReplaceAll(m[1], "&", "&amp;")+`#u`) {
		t.Fatal("the older page's Mark read does not return to it")
	}
}
