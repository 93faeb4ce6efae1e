package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// seedWork makes Reader 2's mangapill/2 (Latest 9, Progress 8, bookmarked
// first) and a new mangadex/w1 (Latest 12, bookmarked a day later) one
// Work by a shared AniList id, and stores comix/look, whose title looks
// like the Work's: a suggestion. It returns the Work's id.
func seedWork(t testing.TB, f *fixture) int64 {
	t.Helper()
	ctx := context.Background()
	now := admintest.Now
	hourAgo := now.Add(-time.Hour)
	storetest.Series(ctx, t, f.st,
		storetest.SeriesOpts{Site: "mangadex", ID: "w1", URL: "https://mangadex.test/title/w1", Title: "The Two Sites Story", LatestNumber: "12",
			LatestTitle: "Chapter 12", LatestURL: "https://mangadex.test/chapter/w1-12", SeenAt: &hourAgo, CheckedAt: &hourAgo},
		storetest.SeriesOpts{Site: "comix", ID: "look", URL: "https://comix.test/title/look", Title: "The Two Sites Story!", LatestNumber: "3",
			LatestURL: "https://comix.test/chapter/look-3", SeenAt: storetest.At(now.Add(-50 * time.Hour)), CheckedAt: storetest.At(now.Add(-50 * time.Hour))})
	storetest.Bookmarks(ctx, t, f.st, storetest.BookmarkOpts{ReaderID: 2, Site: "mangadex", SeriesID: "w1", CreatedAt: &now})
	storetest.ChapterEvents(ctx, t, f.st, storetest.ChapterEventOpts{Site: "mangadex", SeriesID: "w1", Number: "12",
		URL: "https://mangadex.test/chapter/w1-12", SeenAt: &hourAgo})
	al := []store.ExternalID{{Kind: "al", Value: "30002", Source: store.IDFromSite}}
	if _, err := f.st.AddSeriesIDs(ctx, []store.SeriesIDs{{Site: "mangapill", SeriesID: "2", IDs: al}, {Site: "mangadex", SeriesID: "w1", IDs: al}}); err != nil {
		t.Fatal(err)
	}
	a, err := f.st.WorkOf(ctx, "mangapill", "2")
	if b, _ := f.st.WorkOf(ctx, "mangadex", "w1"); err != nil || a != b {
		t.Fatalf("the two Series did not link: %d %d %v", a, b, err)
	}
	return a
}

// followLook bookmarks comix/look for the Reader: title suggestions come
// only from Series the Reader follows (docs/adr/0021, "Whose word").
func followLook(t testing.TB, f *fixture) {
	t.Helper()
	now := admintest.Now
	storetest.Bookmarks(context.Background(), t, f.st, storetest.BookmarkOpts{ReaderID: 2, Site: "comix", SeriesID: "look", CreatedAt: &now})
}

// A Work the Reader bookmarks twice is one card: the member bookmarked
// first gives its hooks, the Work's Latest (on the other member) and
// unread count show, each member is a chip, and the counts count cards.
func TestLibraryWorkIsOneCard(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	wk := seedWork(t, f)
	c := f.login(t, f.readerToken)
	b := f.get(t, c, "/").body
	got := items(b)
	if len(got) != 4 || got[0] != "mangapill/2:true" {
		t.Fatalf("cards %v: want 4 with the Work (as mangapill/2, New) first", got)
	}
	if strings.Contains(b, `data-series-id="w1"`) {
		t.Fatal("the Work's second member has a card of its own")
	}
	id := strconv.FormatInt(wk, 10)
	for _, want := range []string{`data-work-id="` + id + `"`, `<a class="open" href="/works/` + id + `">The Two Sites Story</a> <span class="badge new">4<span class="vh"> new chapters</span></span>`,
		`<a href="https://mangadex.test/chapter/w1-12" rel="noreferrer">Ch. 12</a>`, `<span class="chip">mangapill 9</span>`,
		`<span class="chip">mangadex 12</span>`, `action="/works/` + id + `/read"`, "1–4 of 4 shown", "4 in all"} {
		if !strings.Contains(b, want) {
			t.Errorf("library lacks %q", want)
		}
	}
	// The filters find the card by either member.
	for _, q := range []string{"/?site=mangadex", "/?q=two+sites", "/?q=w1", "/?new=1"} {
		if got := items(f.get(t, c, q).body); len(got) != 1 || got[0] != "mangapill/2:true" {
			t.Errorf("%s: cards %v, want the Work's alone", q, got)
		}
	}
	// The filter looks in each part (a title, a member's "site id"): a
	// text spanning two parts finds the card in neither.
	if got := items(f.get(t, c, "/?q="+url.QueryEscape("story mangadex")).body); len(got) != 0 {
		t.Errorf("a text spanning the title and a member's Site finds %v, want nothing", got)
	}
	// A failing member's chip says so.
	if err := f.st.UpsertFailure(context.Background(), "mangadex", "w1", "not_found", admintest.Now.Add(-30*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if b := f.get(t, c, "/").body; !strings.Contains(b, `<span class="chip failing">mangadex 12 · failing</span>`) {
		t.Error("the failing member's chip does not say failing")
	}
	// Mark read on the card ends New on the Work: Progress 12 on both.
	tok := f.csrf(t, c, "/")
	if a := f.postForm(t, c, "/works/"+id+"/read", url.Values{"csrf": {tok}}); a.code != http.StatusSeeOther {
		t.Fatalf("mark read: %d", a.code)
	}
	if got := items(f.get(t, c, "/").body); got[0] == "mangapill/2:true" || len(got) != 4 {
		t.Fatalf("after mark read the Work is still New: %v", got)
	}
	if p, _ := f.st.GetProgress(context.Background(), 2, "mangadex", "w1"); p.Number != "12" {
		t.Fatalf("mark read on the Work: mangadex Progress %+v", p)
	}
}

// The Work page shows the Work and its members, ids, suggestions and
// chapters; each form acts as its Works API twin, then redirects with a
// flash; hostile values are refused with 400 and change nothing.
func TestWorkPageActs(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	wk := seedWork(t, f)
	followLook(t, f)
	ctx := context.Background()
	c := f.login(t, f.readerToken)
	id := strconv.FormatInt(wk, 10)
	page := "/works/" + id
	a := f.get(t, c, page)
	if a.code != http.StatusOK {
		t.Fatalf("work page: %d", a.code)
	}
	for _, want := range []string{`<h1>The Two Sites Story <span class="badge new">4 new</span></h1>`, `on mangadex`,
		`action="/works/` + id + `/members/mangadex/w1/offset"`, `action="/works/` + id + `/members/mangapill/2/unlink"`,
		"<td>al</td><td>30002</td><td>site</td>", `action="/series/mangapill/2/link"`, `name="series_id" value="look"`,
		"shared id al", `Chapter 12</a> <span class="muted small">on mangadex`, `action="/series/mangadex/w1/ids"`} {
		if !strings.Contains(a.body, want) {
			t.Errorf("work page lacks %q", want)
		}
	}
	// Not the Reader's Work, not a Work, no session.
	for _, p := range []string{"/works/999999", "/works/abc", "/works/-1", "/works/" + id + "0"} {
		if a := f.get(t, c, p); a.code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, a.code)
		}
	}
	if a := f.get(t, f.login(t, f.ownerToken), page); a.code != http.StatusNotFound {
		t.Errorf("another Reader's Work: %d, want 404", a.code)
	}
	tok := f.csrf(t, c, page)
	post := func(path string, form url.Values) answer {
		t.Helper()
		form.Set("csrf", tok)
		return f.postForm(t, c, path, form)
	}
	offset := func() string {
		t.Helper()
		w, err := f.st.ReaderWork(ctx, 2, wk, admintest.Now)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range w.Members {
			if m.Site == "mangadex" {
				return m.Offset
			}
		}
		return ""
	}
	// Offsets: a good one, then hostile ones refused.
	if a := post(page+"/members/mangadex/w1/offset", url.Values{"offset": {"-2"}}); a.code != http.StatusSeeOther || a.header.Get("Location") != page+"?done=offset" {
		t.Fatalf("offset: %d to %q", a.code, a.header.Get("Location"))
	}
	if o := offset(); o != "-2" {
		t.Fatalf("offset stored %q, want -2", o)
	}
	// The form set the Reader's own offset: the shared one is still 0.
	var shared string
	if err := f.st.Pool().QueryRow(ctx, `SELECT "offset"::text FROM work_members WHERE site = 'mangadex' AND series_id = 'w1'`).Scan(&shared); err != nil || shared != "0" {
		t.Fatalf("shared offset %q (%v) after a Reader's form, want 0", shared, err)
	}
	// A shared offset migration 0018 set back to 0 is shown, for whoever set it.
	if _, err := f.st.Pool().Exec(ctx, `INSERT INTO work_offset_resets (site, series_id, work_id, "offset") VALUES ('mangadex', 'w1', $1, 100)`, wk); err != nil {
		t.Fatal(err)
	}
	if b := f.get(t, c, page).body; !strings.Contains(b, "An offset of &#43;100 was set on mangadex") {
		t.Error("the Work page does not show the offset migration 0018 set back to 0")
	}
	if b := f.get(t, c, page+"?done=offset").body; !strings.Contains(b, `<p class="flash" role="status">Offset saved`) {
		t.Error("no flash after the offset")
	}
	if b := f.get(t, c, page+"?done=%3Cscript%3E").body; strings.Contains(b, `class="flash"`) || strings.Contains(b, "<script>") {
		t.Error("an unknown flash code shows something")
	}
	for _, bad := range []string{"abc", "1e9", "100001", "-100001", "<script>alert(1)</script>", strings.Repeat("9", 5000), "", "NaN", "0x10", "1,5"} {
		a := post(page+"/members/mangadex/w1/offset", url.Values{"offset": {bad}})
		if a.code != http.StatusBadRequest || !strings.Contains(a.body, "Not an offset") || strings.Contains(a.body, "<script>alert") {
			t.Errorf("offset %.20q: %d, want 400 naming the problem", bad, a.code)
		}
	}
	if o := offset(); o != "-2" {
		t.Fatalf("a refused offset changed it to %q", o)
	}
	if a := post(page+"/members/comix/nope/offset", url.Values{"offset": {"1"}}); a.code != http.StatusNotFound {
		t.Errorf("offset of a non-member: %d, want 404", a.code)
	}
	if a := f.postForm(t, c, page+"/members/mangadex/w1/offset", url.Values{"offset": {"5"}}); a.code != http.StatusForbidden || offset() != "-2" {
		t.Errorf("offset without the csrf field: %d, offset %s", a.code, offset())
	}
	// Progress on the Work, carried to both members (offset -2: 10 on mangadex is 12 there).
	if a := post(page+"/progress", url.Values{"number": {"10"}}); a.code != http.StatusSeeOther || a.header.Get("Location") != page {
		t.Fatalf("progress: %d %q", a.code, a.header.Get("Location"))
	}
	if p, _ := f.st.GetProgress(ctx, 2, "mangadex", "w1"); p.Number != "12" {
		t.Errorf("the Work's Progress 10 on mangadex (offset -2): %s, want 12", p.Number)
	}
	if p, _ := f.st.GetProgress(ctx, 2, "mangapill", "2"); p.Number != "10" {
		t.Errorf("the Work's Progress 10 on mangapill: %s", p.Number)
	}
	for _, bad := range []string{"x", "-3", "<b>1</b>", strings.Repeat("1", 400)} {
		if a := post(page+"/progress", url.Values{"number": {bad}}); a.code != http.StatusUnprocessableEntity || !strings.Contains(a.body, "Not saved: type the chapter") {
			t.Errorf("progress %.20q: %d", bad, a.code)
		}
	}
	// Notices on every bookmarked member.
	if a := post(page+"/notify", url.Values{"mode": {"off"}, "pile": {"3"}, "pile_days": {"7"}}); a.code != http.StatusSeeOther {
		t.Fatalf("notify: %d", a.code)
	}
	for _, s := range [][2]string{{"mangapill", "2"}, {"mangadex", "w1"}} {
		if bm, _ := f.st.GetBookmark(ctx, 2, s[0], s[1]); bm.NotifyMode != "off" {
			t.Errorf("%s notify %q, want off", s[0], bm.NotifyMode)
		}
	}
	if a := post(page+"/notify", url.Values{"mode": {"loud"}, "pile": {"3"}, "pile_days": {"7"}}); a.code != http.StatusBadRequest {
		t.Errorf("a bad notice mode: %d", a.code)
	}
	// Naming an id: an unknown kind, a bad or overlong value are refused.
	for _, bad := range []url.Values{{"kind": {"zz"}, "value": {"1"}}, {"kind": {"al"}, "value": {strings.Repeat("a", 101)}},
		{"kind": {"al"}, "value": {"<script>"}}, {"kind": {"<script>" + strings.Repeat("k", 500)}, "value": {"1"}}, {"kind": {"al"}, "value": {""}}} {
		bad.Set("back", page)
		a := post("/series/mangapill/2/ids", bad)
		if a.code != http.StatusBadRequest || !strings.Contains(a.body, "Not an external id") || strings.Contains(a.body, "<script>") {
			t.Errorf("id %v: %d, want 400 naming the problem", bad, a.code)
		}
	}
	if ids, _ := f.st.SeriesExternalIDs(ctx, 2, "mangapill", "2"); len(ids) != 1 {
		t.Fatalf("refused ids were stored: %+v", ids)
	}
	if a := post("/series/mangapill/2/ids", url.Values{"kind": {"mal"}, "value": {"4242"}, "back": {page}}); a.code != http.StatusSeeOther || a.header.Get("Location") != page+"?done=id" {
		t.Fatalf("naming an id: %d %q", a.code, a.header.Get("Location"))
	}
	if ids, _ := f.st.SeriesExternalIDs(ctx, 2, "mangapill", "2"); len(ids) != 2 {
		t.Fatalf("the named id: %+v", ids)
	}
	if a := post("/series/mangapill/999/ids", url.Values{"kind": {"mal"}, "value": {"1"}}); a.code != http.StatusNotFound {
		t.Errorf("an id for a Series not bookmarked: %d", a.code)
	}
	// "Same story" on a suggestion links it for this Reader.
	for _, bad := range []url.Values{{"site": {"nosite"}, "series_id": {"look"}}, {"site": {"mangapill"}, "series_id": {"2"}}, {"site": {"comix"}, "series_id": {""}}} {
		if a := post("/series/mangapill/2/link", bad); a.code != http.StatusBadRequest {
			t.Errorf("link %v: %d, want 400", bad, a.code)
		}
	}
	if a := post("/series/mangapill/2/link", url.Values{"site": {"comix"}, "series_id": {"look"}}); a.code != http.StatusSeeOther || a.header.Get("Location") != page+"?done=linked" {
		t.Fatalf("same story: %d %q", a.code, a.header.Get("Location"))
	}
	if w, _ := f.st.ReaderWork(ctx, 2, wk, admintest.Now); len(w.Members) != 3 {
		t.Fatalf("after same story the Work has %d members, want 3", len(w.Members))
	}
	// Unlink a member: it leaves the Work in this Reader's library (other
	// Readers keep it), and the Work page stays.
	if a := post(page+"/members/mangadex/w1/unlink", url.Values{}); a.code != http.StatusSeeOther || a.header.Get("Location") != page+"?done=unlink" {
		t.Fatalf("unlink: %d %q", a.code, a.header.Get("Location"))
	}
	if w, _ := f.st.ReaderWork(ctx, 2, wk, admintest.Now); len(w.Members) != 2 {
		t.Fatalf("after the unlink the Reader's Work has %d members, want 2", len(w.Members))
	}
	if got, _ := f.st.WorkOf(ctx, "mangadex", "w1"); got != wk {
		t.Fatal("one Reader's unlink took the member out of the Work for everyone")
	}
	if a := f.get(t, c, page+"?done=unlink"); !strings.Contains(a.body, "Member unlinked for you") {
		t.Error("the Work page lacks the unlink's flash")
	}
	if a := post(page+"/members/mangadex/w1/unlink", url.Values{}); a.code != http.StatusNotFound {
		t.Errorf("unlinking twice: %d, want 404", a.code)
	}
	// Remove: every bookmark of the Reader's in the Work goes.
	if a := post(page+"/remove", url.Values{}); a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
		t.Fatalf("remove: %d", a.code)
	}
	if _, err := f.st.GetBookmark(ctx, 2, "mangapill", "2"); err == nil {
		t.Fatal("Remove on the Work left the bookmark")
	}
	if a := f.get(t, c, page); a.code != http.StatusNotFound {
		t.Errorf("the Work page after Remove: %d, want 404", a.code)
	}
}

// The Series page of a member shows its ids, a link to its Work and the
// suggestions.
func TestSeriesPageShowsWorkIDsAndSuggestions(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	wk := seedWork(t, f)
	followLook(t, f)
	c := f.login(t, f.readerToken)
	b := f.get(t, c, "/series/mangadex/w1").body
	for _, want := range []string{`<a class="work" href="/works/` + strconv.FormatInt(wk, 10) + `">`, `al <strong>30002</strong>`,
		`name="series_id" value="look"`, `action="/series/mangadex/w1/link"`, `action="/series/mangadex/w1/ids"`, "Latest <a href=\"https://comix.test/chapter/look-3\"", "seen 2 days ago"} {
		if !strings.Contains(b, want) {
			t.Errorf("series page lacks %q", want)
		}
	}
	tok := f.csrf(t, c, "/series/mangapill/2")
	a := f.postForm(t, c, "/series/mangapill/2/ids", url.Values{"csrf": {tok}, "kind": {"zz"}, "value": {"1"}, "back": {"/series/mangapill/2"}})
	if a.code != http.StatusBadRequest || !strings.Contains(a.body, `role="alert">Not an external id`) {
		t.Errorf("a bad kind on the Series page: %d", a.code)
	}
}

// A member's hostile title and chapter link are text on the Work's card and
// page, never markup or a script link.
func TestWorkCardAndPageEscapeHostileText(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	wk := seedWork(t, f)
	// Raw SQL on purpose: the row is the attack. Its javascript: link is
	// one the Site adapters drop (sites.Resolve keeps http(s) links only),
	// so only a forged row holds one beside the hostile title.
	if _, err := f.st.Pool().Exec(context.Background(), `UPDATE series SET title = '<img src=x onerror=alert(1)>',
		latest_url = 'javascript:alert(1)' WHERE site = 'mangadex' AND series_id = 'w1'`); err != nil {
		t.Fatal(err)
	}
	c := f.login(t, f.readerToken)
	for _, path := range []string{"/", "/works/" + strconv.FormatInt(wk, 10)} {
		b := f.get(t, c, path).body
		if strings.Contains(b, "<img src=x") || strings.Contains(b, `href="javascript:`) {
			t.Errorf("%s carries the hostile title or link as markup", path)
		}
		if !strings.Contains(b, "&lt;img src=x onerror=alert(1)&gt;") {
			t.Errorf("%s does not show the hostile title as text", path)
		}
	}
}
