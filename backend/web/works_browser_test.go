package web_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/browser/chromiumtest"
)

// In a real Chromium at a phone's 360 px: a Work of two members the
// Reader bookmarks is ONE library card (its chips name both Sites), no
// taller than a lone Series' card; its title opens the Work page, whose
// controls work without script and come back with a flash.
func TestBrowserLibraryShowsOneCardPerWork(t *testing.T) {
	chromiumtest.Require(t)
	f := newFixture(t, "")
	wk := seedWork(t, f)
	id := strconv.FormatInt(wk, 10)
	p := openPage(t).CancelTimeout().Timeout(2 * time.Minute)
	p.MustSetViewport(360, 780, 2, true)
	browserLogin(t, p, f.srv.URL, f.readerToken)
	if n := p.MustEval(`() => document.querySelectorAll('ul.library li.item').length`).Int(); n != 4 {
		t.Fatalf("%d cards for 5 bookmarks (one Work of two), want 4", n)
	}
	card := p.MustElement(`li.item[data-work-id="` + id + `"]`)
	if s, sid := *card.MustAttribute("data-site"), *card.MustAttribute("data-series-id"); s != "mangapill" || sid != "2" {
		t.Fatalf("the Work's card carries %s/%s, want the member bookmarked first (mangapill/2)", s, sid)
	}
	if p.MustHas(`li.item[data-series-id="w1"]`) {
		t.Fatal("the Work's second member has a card of its own")
	}
	chips := card.MustElements(".chip")
	if len(chips) != 2 || chips[0].MustText() != "mangadex 12" || chips[1].MustText() != "mangapill 9" {
		t.Fatalf("%d chips, want mangadex 12 and mangapill 9", len(chips))
	}
	if !chips[1].MustVisible() {
		t.Fatal("the chips are not visible at 360 px")
	}
	if h := card.MustShape().Box().Height; h > 96 {
		t.Errorf("the Work's card is %.0f px tall at 360 px, want at most 96", h)
	}
	if w := p.MustEval(`() => document.documentElement.scrollWidth`).Int(); w > 360 {
		t.Errorf("the library scrolls sideways at 360 px: %d px", w)
	}
	followLook(t, f)                       // the Work page then suggests comix/look
	p.MustSetViewport(1280, 900, 1, false) // the Work page's members table at a desktop's width
	// The card moved with the new width: find its title again once the
	// layout has settled, then click it.
	open := p.MustElement(`li.item[data-work-id="` + id + `"] a.open`).MustWaitStable()
	wait := p.MustWaitNavigation()
	open.MustClick()
	wait()
	p.MustWaitLoad()
	if u := p.MustInfo().URL; !strings.HasSuffix(u, "/works/"+id) {
		t.Fatalf("the Work card's title opened %s", u)
	}
	assertNamed(t, p)
	if rows := len(p.MustElements("ul.members li.member")); rows != 2 {
		t.Fatalf("the Work page lists %d members, want 2", rows)
	}
	// A member's offset, then the Work's Progress, each back with a flash.
	p.MustElement(`li.member[data-site="mangadex"] input[name="offset"]`).MustSelectAllText().MustInput("-2")
	submit(p, `li.member[data-site="mangadex"] form[action$="/offset"] button`)
	if txt := p.MustElement("p.flash").MustText(); !strings.HasPrefix(txt, "Offset saved") {
		t.Fatalf("after the offset: flash %q", txt)
	}
	if v := p.MustElement(`li.member[data-site="mangadex"] input[name="offset"]`).MustProperty("value").Str(); v != "-2" {
		t.Fatalf("the offset shows %q after saving -2", v)
	}
	// The offset moved the Work's Latest to mangadex's 12 - 2 = 10: two past Progress 8.
	if txt := p.MustElement("h1 .badge.new").MustText(); txt != "2 new" {
		t.Fatalf("after the offset the Work says %q, want 2 new", txt)
	}
	p.MustElement("#number").MustSelectAllText().MustInput("10")
	submit(p, `form[action$="/progress"] button`)
	if p.MustHas("h1 .badge.new") {
		t.Fatal("the Work is still New after Progress 10 at its Latest 10")
	}
	if pr, _ := f.st.GetProgress(context.Background(), 2, "mangadex", "w1"); pr.Number != "12" {
		t.Fatalf("the Work's Progress 10 on mangadex (offset -2): %+v, want 12", pr)
	}
	// A hostile offset: 400 with the reason, on the same page.
	p.MustElement(`li.member[data-site="mangadex"] input[name="offset"]`).MustSelectAllText().MustInput("1e9")
	submit(p, `li.member[data-site="mangadex"] form[action$="/offset"] button`)
	if txt := p.MustElement("p.alert").MustText(); !strings.Contains(txt, "Not an offset") {
		t.Fatalf("a hostile offset: %q", txt)
	}
	// "Same story" on the suggestion links it: the Work has three members.
	submit(p, `form[action="/series/mangadex/w1/link"] button`)
	if txt := p.MustElement("p.flash").MustText(); !strings.HasPrefix(txt, "Linked") {
		t.Fatalf("after same story: flash %q", txt)
	}
	if rows := len(p.MustElements("ul.members li.member")); rows != 3 {
		t.Fatalf("after same story the Work lists %d members, want 3", rows)
	}
}
