package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/browser/chromiumtest"
)

// badgeCheck reports, for every New card on the page, whether its cover
// badge shows whole: inside the viewport once the card is scrolled to, on
// its cover's top corner, and the topmost thing at its centre and four
// corners (so neither the title's overflow nor anything else cuts or
// covers it; 3 px in from each corner, inside its rounding); and its text, as a screen reader reads it.
const badgeCheck = `() => Array.from(document.querySelectorAll('ul.library li.item[data-new="true"]')).map(li => {
  const id = li.dataset.workId ? 'work' : li.dataset.site + '/' + li.dataset.seriesId;
  const b = li.querySelector('.badge.new');
  if (!b) return { id: id, bad: 'no badge' };
  li.scrollIntoView({ block: 'center' });
  const r = b.getBoundingClientRect(), c = li.querySelector('.cover').getBoundingClientRect();
  const bad = [];
  if (r.width < 8 || r.height < 8) bad.push('too small ' + r.width + 'x' + r.height);
  if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) bad.push('outside the viewport');
  if (Math.abs(r.left - c.left) > 2 || Math.abs(r.top - c.top) > 2) bad.push('not on the cover corner');
  const pts = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 3, r.top + 3], [r.right - 3, r.top + 3], [r.left + 3, r.bottom - 3], [r.right - 3, r.bottom - 3]];
  pts.forEach(p => { const e = document.elementFromPoint(p[0], p[1]); if (!e || !b.contains(e)) bad.push('covered at ' + p + ' by ' + (e ? e.outerHTML.slice(0, 60) : 'nothing')); });
  return { id: id, bad: bad.join('; '), text: b.textContent, shown: b.firstChild.textContent };
})`

// scheme emulates prefers-color-scheme.
func scheme(t *testing.T, p *rod.Page, s string) {
	t.Helper()
	if err := (proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{{Name: "prefers-color-scheme", Value: s}}}).Call(p); err != nil {
		t.Fatal(err)
	}
}

// The library's cards at 360 and 1280 px, light and dark, list and grid:
// every New card's count shows whole on its cover's corner and reads "N
// new chapters"; a Work's chips fit the 360 px card; the Sort select
// sorts by unread; typing in the filter finds a bookmark on page 2
// without a reload and keeps it in the URL; a refusing Site's card says
// so under a slug title; the empty library links its ways in; axe finds
// nothing serious.
func TestBrowserCardBadgeSortFilter(t *testing.T) {
	chromiumtest.Require(t)
	src := axeSource(t)
	f := newFixture(t, "")
	seedNewCards(t, f)
	seedTimeLines(t, f)
	seedWork(t, f)
	// The Work's member failing: its chip is the longest, and with the
	// Work's expected window they need two lines at 360 px.
	if err := f.st.UpsertFailure(context.Background(), "mangadex", "w1", "not_found", admintest.Now.Add(-30*time.Hour)); err != nil {
		t.Fatal(err)
	}
	seedRefused(t, f)
	seedMany(t, f, 70) // 81 cards: page 2 holds m53 to m69
	p := openPage(t).CancelTimeout().Timeout(8 * time.Minute)
	browserLogin(t, p, f.srv.URL, f.readerToken)
	wantText := map[string]string{"mangapill/n0": "1 new chapter", "mangapill/n5": "11 new chapters", "work": "4 new chapters"}
	for _, width := range []int{360, 1280} {
		p.MustSetViewport(width, 800, 1, width < 600)
		for _, s := range []string{"light", "dark"} {
			scheme(t, p, s)
			for _, view := range []string{"list", "grid"} {
				at := fmt.Sprintf("%s %s at %d px", view, s, width)
				p.MustNavigate(f.srv.URL + "/?view=" + view).MustWaitLoad()
				badges := p.MustEval(badgeCheck).Arr()
				if len(badges) != 7 {
					t.Errorf("%s: %d New cards, want 7", at, len(badges))
				}
				for _, b := range badges {
					id := b.Get("id").Str()
					if bad := b.Get("bad").Str(); bad != "" {
						t.Errorf("%s: %s's badge: %s", at, id, bad)
					}
					if w, ok := wantText[id]; ok && b.Get("text").Str() != w {
						t.Errorf("%s: %s's badge reads %q, want %q", at, id, b.Get("text").Str(), w)
					}
					if shown := b.Get("shown").Str(); shown == "" || strings.Contains(shown, "chapter") {
						t.Errorf("%s: %s's badge shows %q, want the count alone", at, id, shown)
					}
				}
				if view == "list" && width == 360 {
					checkPhoneCards(t, p, at)
				}
				for _, v := range axeSerious(t, p, src) {
					t.Errorf("%s: %s", at, v)
				}
			}
		}
	}
	scheme(t, p, "light")
	p.MustSetViewport(1280, 800, 1, false)
	p.MustNavigate(f.srv.URL + "/?view=list").MustWaitLoad()
	// Sort by unread through the form.
	p.MustElement("#sort").MustSelect("Most unread")
	submit(p, `.filters button[type=submit]`)
	order := p.MustEval(`() => Array.from(document.querySelectorAll('ul.library li.item')).slice(0, 7).map(li => li.dataset.workId ? 'work' : li.dataset.seriesId).join(' ')`).Str()
	if order != "n5 n4 n3 n2 work n1 n0" {
		t.Errorf("sorted by unread: %s", order)
	}
	if !strings.Contains(p.MustInfo().URL, "sort=unread") {
		t.Errorf("the unread sort is not in the URL: %s", p.MustInfo().URL)
	}
	// The filter, as you type, at 360 px.
	p.MustSetViewport(360, 800, 1, true)
	p.MustNavigate(f.srv.URL + "/").MustWaitLoad()
	if p.MustHas(`li.item[data-series-id="m69"]`) {
		t.Fatal("m69 is on page 1; the test wants it on page 2")
	}
	p.MustEval(`() => { window.stayed = true }`)
	p.MustElement("#q").MustInput("Title 001")
	soon := p.Timeout(time.Minute)
	soon.MustElement(`li.item[data-series-id="m69"]`) // waits for the swap
	soon.MustWait(`() => location.search === '?q=Title+001'`)
	if !p.MustEval(`() => window.stayed === true`).Bool() {
		t.Error("typing in the filter reloaded the page")
	}
	if got := p.MustEval(`() => document.querySelectorAll('ul.library li.item').length`).Int(); got != 1 {
		t.Errorf("the filter shows %d cards, want m69 alone", got)
	}
	if c := p.MustElement("#count").MustText(); !strings.HasPrefix(c, "1–1 of 1 shown") {
		t.Errorf("the count after the filter: %q", c)
	}
	p.MustReload().MustWaitLoad()
	if v := p.MustElement("#q").MustProperty("value").Str(); v != "Title 001" || !p.MustHas(`li.item[data-series-id="m69"]`) {
		t.Errorf("after a reload the filter is %q and m69 shown %v", v, p.MustHas(`li.item[data-series-id="m69"]`))
	}
	p.MustElement("#q").MustSelectAllText()
	p.Keyboard.MustType(input.Backspace)
	soon.MustWait(`() => location.search === '' && document.querySelectorAll('ul.library li.item').length === 60`)
	// A refusing Site's card, at 360 px.
	p.MustNavigate(f.srv.URL + "/?site=comix").MustWaitLoad()
	card := p.MustElement(`li.item[data-site="comix"][data-series-id="0815"]`)
	if txt := card.MustText(); !strings.Contains(txt, "comix refuses us since") || !strings.Contains(txt, "The Quiet Sea") || strings.Contains(txt, "checking") {
		t.Errorf("the refused card reads %q", txt)
	}
	for _, v := range axeSerious(t, p, src) {
		t.Errorf("the refused card: %s", v)
	}
	// The empty library (the Owner has no bookmark), light and dark.
	p.MustSetCookies()
	browserLogin(t, p, f.srv.URL, f.ownerToken)
	for _, width := range []int{360, 1280} {
		p.MustSetViewport(width, 800, 1, width < 600)
		for _, s := range []string{"light", "dark"} {
			scheme(t, p, s)
			p.MustNavigate(f.srv.URL + "/").MustWaitLoad()
			for _, href := range []string{"/userscript/mangabookmark.user.js", "/import"} {
				a := p.MustElement(`.empty a[href="` + href + `"]`)
				if !a.MustVisible() {
					t.Errorf("the empty library's %s link is hidden", href)
				}
			}
			for _, v := range axeSerious(t, p, src) {
				t.Errorf("the empty library (%s, %d px): %s", s, width, v)
			}
		}
	}
	wait := p.MustWaitNavigation()
	p.MustElement(`.empty a[href="/import"]`).MustClick()
	wait()
	if h := p.MustElement("h1").MustText(); h != "Bring your library" {
		t.Errorf("the empty library's Import link leads to %q", h)
	}
}

// checkPhoneCards: on a 360 px phone every card stays within 96 px, and
// a Work's chips show whole inside its card, none cut by the line's end.
func checkPhoneCards(t *testing.T, p *rod.Page, at string) {
	t.Helper()
	cards := p.MustEval(`() => Array.from(document.querySelectorAll('ul.library li.item')).map(li => {
		const r = li.getBoundingClientRect(), t = li.querySelector('.time');
		li.scrollIntoView({ block: 'center' });
		const cut = Array.from(li.querySelectorAll('.chip')).map(c => {
			const q = c.getBoundingClientRect(), tr = t.getBoundingClientRect();
			const e = document.elementFromPoint(q.right - 2, q.top + q.height / 2);
			const bad = q.width === 0 || q.right > tr.right + 0.5 || q.bottom > tr.bottom + 0.5 || !e || !c.contains(e);
			return bad ? c.textContent + ' at ' + [q.left, q.top, q.right, q.bottom].map(Math.round) + ' in ' + [tr.left, tr.top, tr.right, tr.bottom].map(Math.round) + ' under ' + (e ? e.outerHTML.slice(0, 50) : '') : '';
		}).filter(x => x);
		return { id: li.dataset.site + '/' + li.dataset.seriesId, h: r.height, chips: li.querySelectorAll('.chip').length, cut: cut.join(', ') + (cut.length ? ' ' + t.outerHTML : '') };
	})`).Arr()
	chips := 0
	for _, c := range cards {
		if h := c.Get("h").Num(); h > 96 {
			t.Errorf("%s: card %s is %.0f px tall, want at most 96", at, c.Get("id").Str(), h)
		}
		if cut := c.Get("cut").Str(); cut != "" {
			t.Errorf("%s: card %s's chips are cut: %s", at, c.Get("id").Str(), cut)
		}
		chips += c.Get("chips").Int()
	}
	if chips < 2 {
		t.Errorf("%s: %d chips, want the Work's two", at, chips)
	}
}
