package web_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
	"mangabookmark/client"
)

var (
	flashBox  = regexp.MustCompile(`(?s)<div class="flash" role="status" id="flash">(.*?)</div>`)
	undoField = regexp.MustCompile(`name="undo" value="([^"]+)"`)
)

// flashAfter follows an act's 303 with the same client and returns the
// flash the page it lands on shows ("" for none) and that page.
func (f *fixture) flashAfter(t *testing.T, c *http.Client, a answer) (string, answer) {
	t.Helper()
	if a.code != http.StatusSeeOther {
		t.Fatalf("act answered %d, want 303: %.300s", a.code, a.body)
	}
	page := f.get(t, c, a.header.Get("Location"))
	m := flashBox.FindStringSubmatch(page.body)
	if m == nil {
		return "", page
	}
	return m[1], page
}

// undoToken is the Undo form's token on a page.
func undoToken(t *testing.T, body string) string {
	t.Helper()
	m := undoField.FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no Undo form on the page")
	}
	return m[1]
}

// Every act returns to its "back" (page, filter, sort and page number)
// with a flash naming what it did; a "back" that leads anywhere but this
// host's Reader pages returns to the library (open redirects).
func TestActsReturnToBackWithFlash(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/")
	back := "/?q=a&sort=title&state=reading&page=2"
	a := f.postForm(t, c, "/library/mangapill/2/read", url.Values{"csrf": {tok}, "back": {back}})
	if a.header.Get("Location") != back {
		t.Fatalf("Mark read returned to %q, want %q", a.header.Get("Location"), back)
	}
	msg, _ := f.flashAfter(t, c, a)
	if !strings.Contains(msg, "Marked read up to ch. 9:") {
		t.Fatalf("flash after Mark read: %q", msg)
	}
	// Shown once.
	if page := f.get(t, c, back); flashBox.MatchString(page.body) {
		t.Fatal("the flash showed twice")
	}
	for _, hostile := range []string{"//evil.test/", "///evil.test", "/\\evil.test", "\\\\evil.test", "https://evil.test/",
		"http:/evil.test", "javascript:alert(1)", "/\t/evil.test", " /", "/%2F%2Fevil.test", "/%5Cevil.test", "/series/../admin",
		"/admin", "/api/me", "/series/x\r\nSet-Cookie: a=b", "data:text/html,x", "", "evil.test", "/" + strings.Repeat("a", 3000),
		"/\x00", "/\u2028evil", "/?next=\u00a0"} {
		a := f.postForm(t, c, "/library/mangapill/3/read", url.Values{"csrf": {tok}, "back": {hostile}})
		if a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
			t.Errorf("back %q: %d to %q, want 303 to /", hostile, a.code, a.header.Get("Location"))
		}
	}
	for _, ok := range []string{"/", "/?page=2", "/series/mangapill/2", "/settings#trackers", "/import"} {
		a := f.postForm(t, c, "/library/mangapill/3/read", url.Values{"csrf": {tok}, "back": {ok}})
		if a.header.Get("Location") != ok {
			t.Errorf("back %q: to %q", ok, a.header.Get("Location"))
		}
	}
	// The library carries its own address as every card's back, once.
	page := f.get(t, c, "/?sort=title&page=1")
	if !strings.Contains(page.body, `<form id="acts" class="bulk" method="post" action="/library/bulk"><input type="hidden" name="csrf" value="`+tok+`"><input type="hidden" name="back" value="/?sort=title&amp;page=1">`) {
		t.Fatal("the library's acts form does not carry this page as back")
	}
	if !strings.Contains(page.body, `formaction="/library/mangapill/2/remove"`) || !strings.Contains(page.body, `<label class="pick"><input type="checkbox" form="acts" name="pick" value="/library/mangapill/2"><span class="vh">Select `) {
		t.Fatal("a card lacks its Remove act or select box")
	}
}

// The flash is escaped, signed for its session only, and never echoes a
// URL.
func TestFlashEscapedAndBound(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	storetest.Series(ctx, t, f.st, storetest.SeriesOpts{Site: "mangapill", ID: "x1", Title: `<script>alert("t")</script>`,
		LatestNumber: "4", LatestURL: "https://mangapill.test/chapter/x1-4", SeenAt: storetest.At(admintest.Now)})
	storetest.Bookmarks(ctx, t, f.st, storetest.BookmarkOpts{ReaderID: 2, Site: "mangapill", SeriesID: "x1"})
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/")
	a := f.postForm(t, c, "/library/mangapill/x1/read", url.Values{"csrf": {tok}, "back": {"/"}})
	var stolen *http.Cookie
	for _, ck := range a.headerCookies() {
		if ck.Name == "mb_flash" {
			stolen = ck
		}
	}
	if stolen == nil || !stolen.HttpOnly || stolen.SameSite != http.SameSiteLaxMode {
		t.Fatalf("flash cookie: %+v", stolen)
	}
	msg, _ := f.flashAfter(t, c, a)
	if strings.Contains(msg, "<script>") || !strings.Contains(msg, "&lt;script&gt;") {
		t.Fatalf("flash not escaped: %q", msg)
	}
	// Another session (the Owner's) shows nothing from the same cookie, nor
	// from a forged one.
	o := f.login(t, f.ownerToken)
	u, _ := url.Parse(f.srv.URL)
	for _, v := range []string{stolen.Value, "eyJ0IjoiaGkiLCJlIjo5OTk5OTk5OTk5fQ.AAAA", "x", strings.Repeat("A", 3000)} {
		o.Jar.SetCookies(u, []*http.Cookie{{Name: "mb_flash", Value: v, Path: "/"}})
		if page := f.get(t, o, "/"); flashBox.MatchString(page.body) {
			t.Errorf("another session showed the flash cookie %.20q", v)
		}
	}
	// Past its minute, even its own session shows nothing.
	a = f.postForm(t, c, "/library/mangapill/x1/read", url.Values{"csrf": {tok}, "back": {"/"}})
	f.clock.Add(2 * time.Minute)
	if msg, _ := f.flashAfter(t, c, a); msg != "" {
		t.Errorf("a stale flash showed: %q", msg)
	}
}

// headerCookies are the cookies an answer sets.
func (a answer) headerCookies() []*http.Cookie {
	return (&http.Response{Header: a.header}).Cookies()
}

// Remove, then Undo: the bookmark comes back with its Progress, notice
// mode, reading state, and the Reader's own Work links and unlinks, exactly.
func TestRemoveThenUndoRestoresExactly(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	work := seedWork(t, f) // mangapill/2 and mangadex/w1, one Work by a shared id
	// Reader 2's own word: mangapill/3 and weebcentral/1 are one story;
	// mangadex/w1 is not in the shared Work for them.
	hand, err := f.st.LinkByHand(ctx, 2, store.SeriesRef{Site: "mangapill", SeriesID: "3"}, store.SeriesRef{Site: "weebcentral", SeriesID: "1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.UnlinkMember(ctx, 2, work, "mangadex", "w1"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.SetBookmarkNotify(ctx, 2, "mangapill", "3", store.NotifyPile, 5, 12); err != nil {
		t.Fatal(err)
	}
	if err := f.st.SetBookmarkState(ctx, 2, "mangapill", "3", "on_hold", admintest.Now); err != nil {
		t.Fatal(err)
	}
	storetest.Progress(ctx, t, f.st, storetest.ProgressOpts{ReaderID: 2, Site: "mangadex", SeriesID: "w1", Number: "7.5", ReadAt: storetest.At(admintest.Now.Add(-time.Hour))})
	type snap struct {
		it store.LibraryItem
		pr store.Progress
	}
	take := func(site, id string) snap {
		it, err := f.st.LibraryEntry(ctx, 2, site, id)
		if err != nil {
			t.Fatalf("%s/%s: %v", site, id, err)
		}
		pr, _ := f.st.GetProgress(ctx, 2, site, id)
		return snap{it, pr}
	}
	before3, beforeW1 := take("mangapill", "3"), take("mangadex", "w1")
	if before3.it.WorkID == nil || *before3.it.WorkID != hand || beforeW1.it.WorkID != nil {
		t.Fatalf("setup: hand link %v (want %d), w1's Work for Reader 2 %v (want none)", before3.it.WorkID, hand, beforeW1.it.WorkID)
	}

	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/series/mangapill/3")
	// Removed from its own Series page: back to the library, which names it.
	a := f.postForm(t, c, "/library/mangapill/3/remove", url.Values{"csrf": {tok}, "back": {"/series/mangapill/3"}})
	if a.header.Get("Location") != "/" {
		t.Fatalf("Remove from the Series page returned to %q", a.header.Get("Location"))
	}
	msg, page := f.flashAfter(t, c, a)
	if !strings.HasPrefix(msg, "Removed ") || !strings.Contains(msg, ">Undo</button>") {
		t.Fatalf("flash after Remove: %q", msg)
	}
	undo3 := undoToken(t, page.body)
	if _, err := f.st.LibraryEntry(ctx, 2, "mangapill", "3"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the bookmark is still there: %v", err)
	}
	if _, err := f.st.GetSeries(ctx, "mangapill", "3"); err != nil {
		t.Fatalf("the held Series went: %v", err)
	}
	a = f.postForm(t, c, "/library/undo", url.Values{"csrf": {tok}, "undo": {undo3}, "back": {"/?page=1"}})
	if a.header.Get("Location") != "/?page=1" {
		t.Fatalf("Undo returned to %q", a.header.Get("Location"))
	}
	if msg, _ := f.flashAfter(t, c, a); !strings.Contains(msg, "Put back:") {
		t.Fatalf("flash after Undo: %q", msg)
	}
	if after := take("mangapill", "3"); !sameSnap(before3.it, after.it) || before3.pr != after.pr {
		t.Fatalf("Undo did not restore exactly:\nbefore %+v %+v\nafter  %+v %+v", before3.it, before3.pr, after.it, after.pr)
	}
	// Undone once only.
	a = f.postForm(t, c, "/library/undo", url.Values{"csrf": {tok}, "undo": {undo3}, "back": {"/"}})
	if msg, _ := f.flashAfter(t, c, a); !strings.Contains(msg, "Nothing to undo") {
		t.Fatalf("a second Undo: %q", msg)
	}

	// The unlinked member (the only bookmark of its Series): its Reader's
	// unlink comes back too.
	a = f.postForm(t, c, "/library/mangadex/w1/remove", url.Values{"csrf": {tok}, "back": {"/"}})
	_, page = f.flashAfter(t, c, a)
	a = f.postForm(t, c, "/library/undo", url.Values{"csrf": {tok}, "undo": {undoToken(t, page.body)}, "back": {"/"}})
	if a.code != http.StatusSeeOther {
		t.Fatalf("undo: %d", a.code)
	}
	if after := take("mangadex", "w1"); !sameSnap(beforeW1.it, after.it) || beforeW1.pr != after.pr {
		t.Fatalf("Undo of the unlinked member:\nbefore %+v %+v\nafter  %+v %+v", beforeW1.it, beforeW1.pr, after.it, after.pr)
	}
	if w, _ := f.st.WorkOf(ctx, "mangadex", "w1"); w != work {
		t.Fatalf("the shared Work lost its member: %d, want %d", w, work)
	}
}

// sameSnap compares what a bookmark is to its Reader: its settings,
// Progress and Work (the rest is the Series', untouched).
func sameSnap(a, b store.LibraryItem) bool {
	wa, wb := int64(0), int64(0)
	if a.WorkID != nil {
		wa = *a.WorkID
	}
	if b.WorkID != nil {
		wb = *b.WorkID
	}
	return a.NotifyMode == b.NotifyMode && a.NotifyPile == b.NotifyPile && a.NotifyPileDays == b.NotifyPileDays &&
		a.State == b.State && a.ProgressNumber == b.ProgressNumber && a.AddedBy == b.AddedBy && wa == wb
}

// Attack: another Reader's Undo (their token, their csrf) puts nothing
// back and spends nothing; past its ten minutes the Undo says so and the
// held Series goes; a second Remove replaces the first's Undo.
func TestUndoRefusedForOthersAndAfterExpiry(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/")
	a := f.postForm(t, c, "/library/mangapill/40/remove", url.Values{"csrf": {tok}, "back": {"/"}})
	_, page := f.flashAfter(t, c, a)
	token := undoToken(t, page.body)

	o := f.login(t, f.ownerToken)
	otok := f.csrf(t, o, "/")
	for _, form := range []url.Values{
		{"csrf": {otok}, "undo": {token}},
		{"csrf": {otok}, "undo": {""}},
		{"csrf": {otok}, "undo": {"' OR 1=1 --"}},
	} {
		a := f.postForm(t, o, "/library/undo", form)
		if msg, _ := f.flashAfter(t, o, a); !strings.Contains(msg, "Nothing to undo") {
			t.Errorf("another Reader's Undo %q: %q", form.Get("undo"), msg)
		}
	}
	if _, err := f.st.LibraryEntry(ctx, 1, "mangapill", "40"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another Reader's Undo gave them the bookmark: %v", err)
	}
	if _, err := f.st.LibraryEntry(ctx, 2, "mangapill", "40"); !errors.Is(err, store.ErrNotFound) {
		t.Fatal("another Reader's Undo put the bookmark back")
	}
	// Without the csrf field: 403.
	if a := f.postForm(t, c, "/library/undo", url.Values{"undo": {token}}); a.code != http.StatusForbidden {
		t.Fatalf("Undo without csrf: %d", a.code)
	}
	// A second Remove replaces the first's Undo.
	a = f.postForm(t, c, "/library/weebcentral/1/remove", url.Values{"csrf": {tok}, "back": {"/"}})
	_, page = f.flashAfter(t, c, a)
	second := undoToken(t, page.body)
	a = f.postForm(t, c, "/library/undo", url.Values{"csrf": {tok}, "undo": {token}})
	if msg, _ := f.flashAfter(t, c, a); !strings.Contains(msg, "Nothing to undo") {
		t.Fatalf("the replaced Undo: %q", msg)
	}
	if _, err := f.st.GetSeries(ctx, "mangapill", "40"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the first hold's Series (bookmarked by nobody) stayed: %v", err)
	}
	// Past ten minutes: a clear message, nothing back, the Series gone.
	f.clock.Add(store.UndoKeep + time.Second)
	a = f.postForm(t, c, "/library/undo", url.Values{"csrf": {tok}, "undo": {second}, "back": {"/"}})
	if msg, _ := f.flashAfter(t, c, a); !strings.Contains(msg, "Too late to undo") {
		t.Fatalf("an expired Undo: %q", msg)
	}
	if _, err := f.st.LibraryEntry(ctx, 2, "weebcentral", "1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatal("an expired Undo put the bookmark back")
	}
	if _, err := f.st.GetSeries(ctx, "weebcentral", "1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the expired hold's Series stayed: %v", err)
	}
}

// A held Series another Reader stops bookmarking stays while the hold
// does (the API's Remove respects it).
func TestHeldSeriesOutlivesOtherRemove(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	storetest.Bookmarks(ctx, t, f.st, storetest.BookmarkOpts{ReaderID: 1, Site: "mangapill", SeriesID: "2"})
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/")
	a := f.postForm(t, c, "/library/mangapill/2/remove", url.Values{"csrf": {tok}, "back": {"/"}})
	_, page := f.flashAfter(t, c, a)
	if err := f.st.RemoveBookmark(ctx, 1, "mangapill", "2"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.GetSeries(ctx, "mangapill", "2"); err != nil {
		t.Fatalf("another Reader's Remove deleted a held Series: %v", err)
	}
	a = f.postForm(t, c, "/library/undo", url.Values{"csrf": {tok}, "undo": {undoToken(t, page.body)}})
	if a.code != http.StatusSeeOther {
		t.Fatal(a.code)
	}
	if p, err := f.st.GetProgress(ctx, 2, "mangapill", "2"); err != nil || p.Number != "8" {
		t.Fatalf("Progress after Undo: %+v %v", p, err)
	}
}

// Bulk: Mark read or Remove several cards in one post; Remove of several
// is one Undo; a foreign, unknown or malformed pick refuses the whole
// post and changes nothing.
func TestBulkActs(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	seedMany(t, f, 3) // mangapill/m0..m2, Latest 10, no Progress
	storetest.Series(ctx, t, f.st, storetest.SeriesOpts{Site: "mangapill", ID: "own1", Title: "The Owner's"})
	storetest.Bookmarks(ctx, t, f.st, storetest.BookmarkOpts{ReaderID: 1, Site: "mangapill", SeriesID: "own1"})
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/")
	progress := func(id string) string {
		p, _ := f.st.GetProgress(ctx, 2, "mangapill", id)
		return p.Number
	}
	for _, bad := range []struct {
		picks []string
		code  int
	}{
		{[]string{"/library/mangapill/m0", "/library/mangapill/own1"}, http.StatusNotFound},
		{[]string{"/library/mangapill/m0", "/library/mangapill/nope"}, http.StatusNotFound},
		{[]string{"/library/mangapill/m0", "/works/999999"}, http.StatusNotFound},
		{[]string{"/library/mangapill/m0", "/admin/lanes/x"}, http.StatusBadRequest},
		{[]string{"/library/mangapill/m0/../../x"}, http.StatusBadRequest},
		{[]string{"/library/%zz/m0"}, http.StatusBadRequest},
		{[]string{"/works/-1"}, http.StatusBadRequest},
	} {
		for _, do := range []string{"read", "remove"} {
			a := f.postForm(t, c, "/library/bulk", url.Values{"csrf": {tok}, "do": {do}, "pick": bad.picks, "back": {"/"}})
			if a.code != bad.code {
				t.Errorf("%s %v: %d, want %d", do, bad.picks, a.code, bad.code)
			}
		}
	}
	if progress("m0") != "" {
		t.Fatal("a refused bulk post marked m0 read")
	}
	if _, err := f.st.LibraryEntry(ctx, 1, "mangapill", "own1"); err != nil {
		t.Fatalf("a refused bulk post touched the Owner's bookmark: %v", err)
	}
	if _, err := f.st.LibraryEntry(ctx, 2, "mangapill", "m0"); err != nil {
		t.Fatal("a refused bulk Remove removed m0")
	}
	if a := f.postForm(t, c, "/library/bulk", url.Values{"do": {"read"}, "pick": {"/library/mangapill/m0"}}); a.code != http.StatusForbidden {
		t.Fatalf("bulk without csrf: %d", a.code)
	}
	// Mark read, two at once.
	a := f.postForm(t, c, "/library/bulk", url.Values{"csrf": {tok}, "do": {"read"}, "pick": {"/library/mangapill/m0", "/library/mangapill/m1"}, "back": {"/?page=1"}})
	if a.header.Get("Location") != "/?page=1" {
		t.Fatalf("bulk read returned to %q", a.header.Get("Location"))
	}
	if msg, _ := f.flashAfter(t, c, a); !strings.Contains(msg, "Marked 2 stories read") {
		t.Fatalf("bulk read flash: %q", msg)
	}
	if progress("m0") != "10" || progress("m1") != "10" || progress("m2") != "" {
		t.Fatalf("bulk read: m0 %q m1 %q m2 %q", progress("m0"), progress("m1"), progress("m2"))
	}
	// Remove three at once, one Undo for all.
	a = f.postForm(t, c, "/library/bulk", url.Values{"csrf": {tok}, "do": {"remove"}, "pick": {"/library/mangapill/m0", "/library/mangapill/m2", "/library/mangapill/2"}, "back": {"/"}})
	msg, page := f.flashAfter(t, c, a)
	if !strings.Contains(msg, "Removed 3 stories") {
		t.Fatalf("bulk remove flash: %q", msg)
	}
	for _, id := range []string{"m0", "m2", "2"} {
		if _, err := f.st.LibraryEntry(ctx, 2, "mangapill", id); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("bulk Remove left %s", id)
		}
	}
	a = f.postForm(t, c, "/library/undo", url.Values{"csrf": {tok}, "undo": {undoToken(t, page.body)}, "back": {"/"}})
	if msg, _ := f.flashAfter(t, c, a); !strings.Contains(msg, "Put back 3 bookmarks") {
		t.Fatalf("bulk undo flash: %q", msg)
	}
	if progress("m0") != "10" || progress("2") != "8" {
		t.Fatalf("after Undo: m0 %q, 2 %q", progress("m0"), progress("2"))
	}
}

// A refused Progress value shows on the same page, beside the field, with
// what was typed (escaped), 422, and nothing saved; a good one confirms.
func TestRefusedProgressOnSamePage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	work := "/works/" + strconv.FormatInt(seedWork(t, f), 10)
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/series/mangapill/3")
	for _, bad := range []string{"-1", "abc", "1e9", "99999999", "1.00001", "12,5", "", "NaN", `"><script>alert(1)</script>`, strings.Repeat("9", 5000)} {
		for _, path := range []string{"/library/mangapill/3/progress", work + "/progress"} {
			a := f.postForm(t, c, path, url.Values{"csrf": {tok}, "number": {bad}, "back": {"/series/mangapill/3"}})
			if a.code != http.StatusUnprocessableEntity {
				t.Errorf("%s %.20q: %d, want 422", path, bad, a.code)
				continue
			}
			if !strings.Contains(a.body, `aria-invalid="true" aria-describedby="number-error"`) || !strings.Contains(a.body, `id="number-error" role="alert">Not saved:`) {
				t.Errorf("%s %.20q: the reason is not beside the field", path, bad)
			}
			if strings.Contains(a.body, "<script>alert") {
				t.Errorf("%s: the typed value is not escaped", path)
			}
			if len(bad) < 64 && !strings.Contains(a.body, `value="`+htmlEscape(bad)+`"`) {
				t.Errorf("%s %.20q: the typed value is not in the field", path, bad)
			}
		}
	}
	if p, _ := f.st.GetProgress(ctx, 2, "mangapill", "3"); p.Number != "20" {
		t.Fatalf("a refused value changed Progress: %s", p.Number)
	}
	a := f.postForm(t, c, "/library/mangapill/3/progress", url.Values{"csrf": {tok}, "number": {"42"}, "back": {"/series/mangapill/3"}})
	if a.header.Get("Location") != "/series/mangapill/3" {
		t.Fatalf("set progress returned to %q", a.header.Get("Location"))
	}
	if msg, _ := f.flashAfter(t, c, a); !strings.HasPrefix(msg, "Progress set to ch. 42:") {
		t.Fatalf("set progress flash: %q", msg)
	}
}

// After a tracker pull the card says in words what it did, instead of
// "Working.": how many bookmarks moved forward, how many were skipped
// (two ids) and how many entries no Series carries.
func TestTrackerCardSaysWhatThePullDid(t *testing.T) {
	t.Parallel()
	w := newTrackerWorld(t, false)
	ctx := context.Background()
	now := w.clock.Now()
	if err := w.st.PutTrackerSettings(ctx, store.TrackerSettings{ReaderID: readerID, Service: "anilist", Username: "aki", Pull: true, Now: now}); err != nil {
		t.Fatal(err)
	}
	claims, err := w.st.ClaimTrackerPulls(ctx, "anilist", "test-owner", now, time.Minute, 1)
	if err != nil || len(claims) != 1 {
		t.Fatalf("claim: %v %v", claims, err)
	}
	moved, err := w.st.ApplyTrackerPull(ctx, store.TrackerPulled{ReaderID: readerID, Service: "anilist", Owner: "test-owner", Now: now,
		Next: now.Add(time.Hour), Moves: []store.TrackerMove{{Site: "mangapill", SeriesID: "2", To: 9}}})
	if err != nil || moved != 1 {
		t.Fatalf("pull: %d %v", moved, err)
	}
	pulled := now.Add(-5 * time.Minute)
	w.tr.set(readerID, client.Tracker{Service: "anilist", Username: "aki", Pull: true, State: "ok", LastPullAt: &pulled,
		Skipped: []client.TrackerSkip{{Site: "mangapill", SeriesID: "3"}, {Site: "mangapill", SeriesID: "40"}, {Site: "weebcentral", SeriesID: "1"}}})
	w.tr.unmatched = someUnmatched(12)
	c := w.login(t, w.readerToken)
	page := w.get(t, c, "/settings")
	want := "Pulled from AniList 5 minutes ago: 1 bookmark moved forward, 3 skipped (two AniList ids), 12 entries not on a Site we read. Your AniList list is read regularly"
	if !strings.Contains(page.body, want) {
		m := regexp.MustCompile(`id="anilist-state">[^<]*`).FindString(page.body)
		t.Fatalf("the card says %q, want %q", m, want)
	}
}

// The card's acts (select box, Mark read, Remove) keep it within the
// library's budget of 1.5 KB a card: the csrf and back fields are the
// page's, once.
func TestCardBytesWithActs(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	seedMany(t, f, 60)
	c := f.login(t, f.readerToken)
	body := f.get(t, c, "/").body
	from, to := strings.Index(body, `<li class="item"`), strings.LastIndex(body, "</ul>")
	n := strings.Count(body, `<li class="item"`)
	if from < 0 || to < from || n != 60 {
		t.Fatalf("%d cards", n)
	}
	per := float64(to-from) / float64(n)
	t.Logf("%.0f bytes a card", per)
	if per > 1536 {
		t.Fatalf("%.0f bytes a card, over the 1.5 KB budget", per)
	}
	if strings.Count(body, `name="csrf"`) > 3 {
		t.Fatalf("the csrf field is repeated per card: %d", strings.Count(body, `name="csrf"`))
	}
}

// The Series page's notice and state forms confirm in the flash, and a
// refused value shows the same page with the reason, nothing saved.
func TestSeriesSettingsConfirmAndRefuseOnPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	page := "/series/mangapill/2"
	tok := f.csrf(t, c, page)
	a := f.postForm(t, c, "/library/mangapill/2/notify", url.Values{"csrf": {tok}, "mode": {"pile"}, "pile": {"4"}, "pile_days": {"9"}, "back": {page}})
	if msg, _ := f.flashAfter(t, c, a); msg != "Notices saved: in a pile of 4 chapters, or after 9 days." {
		t.Fatalf("notify flash: %q", msg)
	}
	a = f.postForm(t, c, "/library/mangapill/2/state", url.Values{"csrf": {tok}, "state": {"on_hold"}, "back": {page}})
	if msg, _ := f.flashAfter(t, c, a); msg != "Reading state saved: on hold." {
		t.Fatalf("state flash: %q", msg)
	}
	for path, form := range map[string]url.Values{
		"/library/mangapill/2/notify": {"csrf": {tok}, "mode": {"<b>loud</b>"}, "pile": {"4"}, "pile_days": {"9"}, "back": {page}},
		"/library/mangapill/2/state":  {"csrf": {tok}, "state": {"<b>x</b>"}, "back": {page}},
	} {
		a := f.postForm(t, c, path, form)
		if a.code != http.StatusBadRequest || !strings.Contains(a.body, `<h1>mangapill title 2`) || !strings.Contains(a.body, "Nothing was saved.") || strings.Contains(a.body, "<b>") {
			t.Errorf("%s refused: %d, the Series page with the reason?", path, a.code)
		}
	}
	it, _ := f.st.LibraryEntry(context.Background(), 2, "mangapill", "2")
	if it.NotifyMode != "pile" || it.State != "on_hold" {
		t.Fatalf("a refused form changed the settings: %s %s", it.NotifyMode, it.State)
	}
}
