package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/store"
)

// unreachable lists the acts in <main> a person could not reach or see:
// each button, field, select, link and summary (hidden fields, visually
// hidden labels and what a closed <details> holds aside) is scrolled to,
// then must have a size, lie inside the viewport's width with no box
// scrolled sideways to show it (a table's hidden columns), and be the
// element found at its own centre (nothing covers it, no box clips it).
const unreachable = `() => {
  const bad = [];
  const acts = document.querySelectorAll('main button, main input:not([type=hidden]), main select, main textarea, main a[href], main summary');
  for (const e of acts) {
    if (e.closest('.vh')) continue;
    const shut = e.closest('details:not([open])');
    if (shut && e.tagName !== 'SUMMARY') continue;
    e.scrollIntoView({block: 'center', inline: 'center'});
    const r = e.getClientRects()[0] || e.getBoundingClientRect(); // a wrapped link: its first line
    const name = (e.getAttribute('aria-label') || e.textContent || e.name || e.id || '').trim().slice(0, 60);
    if (r.width < 1 || r.height < 1 || getComputedStyle(e).visibility === 'hidden') { bad.push('no size: ' + e.tagName + ' ' + name); continue; }
    if (r.left < 0 || r.right > window.innerWidth + 0.5) { bad.push('outside the width: ' + e.tagName + ' ' + name + ' ' + Math.round(r.left) + '..' + Math.round(r.right)); continue; }
    let sideways = null;
    for (let a = e.parentElement; a; a = a.parentElement) if (a.scrollLeft > 0) sideways = a;
    if (sideways) { bad.push('behind a sideways scroll: ' + e.tagName + ' ' + name); sideways.scrollLeft = 0; continue; }
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!at || (at !== e && !e.contains(at) && !(e.labels && [...e.labels].includes(at)))) bad.push('covered or clipped: ' + e.tagName + ' ' + name);
  }
  window.scrollTo(0, 0);
  return bad;
}`

// setScheme emulates the reader's colour scheme.
func setScheme(t *testing.T, p *rod.Page, scheme string) {
	t.Helper()
	if err := (proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}).Call(p); err != nil {
		t.Fatal(err)
	}
}

// In a real Chromium at a phone's 360 px and a desktop's 1280, light and
// dark: every act of the Work page is reachable and visible (each
// member's offset field, Set, Series page and "Not this story" among
// them), nothing scrolls sideways, axe finds nothing serious, and the
// drifted member's advice names the signed offset and the member. Its
// one-click form sets that offset, and then the advice is gone.
func TestBrowserWorkPageActsAtEveryWidth(t *testing.T) {
	chromiumtest.Require(t)
	src := axeSource(t)
	f := newFixture(t, "")
	page := driftWork(t, f)
	followLook(t, f) // a suggestion, with its "Same story"
	p := openPage(t).CancelTimeout().Timeout(6 * time.Minute)
	browserLogin(t, p, f.srv.URL, f.readerToken)
	for _, c := range []struct {
		width  int
		scheme string
	}{{360, "light"}, {360, "dark"}, {1280, "light"}, {1280, "dark"}} {
		p.MustSetViewport(c.width, 800, 1, c.width < 600)
		setScheme(t, p, c.scheme)
		p.MustNavigate(f.srv.URL + page).MustWaitLoad()
		if w := p.MustEval(`() => document.documentElement.scrollWidth`).Int(); w > c.width {
			t.Errorf("%d px %s: the Work page scrolls sideways (%d px)", c.width, c.scheme, w)
		}
		for _, b := range p.MustEval(unreachable).Arr() {
			t.Errorf("%d px %s: %s", c.width, c.scheme, b.Str())
		}
		for _, site := range []string{"mangapill", "mangadex"} {
			m := `li.member[data-site="` + site + `"] `
			for _, sel := range []string{`.member-acts input[name="offset"]`, `.member-acts form[action$="/offset"] button`, `form[action$="/unlink"] button`, `a[href^="/series/"]`} {
				if !p.MustElement(m + sel).MustVisible() {
					t.Errorf("%d px %s: %s%s is not visible", c.width, c.scheme, m, sel)
				}
			}
		}
		advice := p.MustElement(`li.member[data-site="mangadex"] .drift-advice`)
		if txt := advice.MustText(); !strings.Contains(txt, "set offset −11 on mangadex/w1") {
			t.Errorf("%d px %s: the advice says %q", c.width, c.scheme, txt)
		}
		if s := p.MustElement(`li.member[data-site="mangadex"] .member-state`).MustEval(`() => getComputedStyle(this).borderRadius + ' ' + getComputedStyle(this).display`).Str(); strings.HasPrefix(s, "999") {
			t.Errorf("%d px %s: the member's State is drawn as a pill (%s)", c.width, c.scheme, s)
		}
		if r := p.MustElement(`form[action$="/state"]`).MustEval(`() => getComputedStyle(this).borderTopLeftRadius`).Str(); strings.HasPrefix(r, "999") {
			t.Errorf("%d px %s: the reading-state form is drawn as the Lane-state pill", c.width, c.scheme)
		}
		for _, v := range axeSerious(t, p, src) {
			t.Errorf("%d px %s: %s", c.width, c.scheme, v)
		}
		assertNamed(t, p)
	}
	// The advice's one act, on a phone: the offset is set and the advice goes.
	p.MustSetViewport(360, 800, 1, true)
	setScheme(t, p, "light")
	p.MustNavigate(f.srv.URL + page).MustWaitLoad()
	submit(p, `li.member[data-site="mangadex"] .drift-advice button`)
	if txt := p.MustElement("p.flash").MustText(); !strings.HasPrefix(txt, "Offset saved") {
		t.Fatalf("after the advice's act: flash %q", txt)
	}
	if p.MustHas(".drift-advice") {
		t.Fatal("the drift advice stays once its offset is set")
	}
	if txt := p.MustElement(`li.member[data-site="mangadex"] .member-state`).MustText(); txt != "reading fine" {
		t.Fatalf("the member's State after its offset: %q", txt)
	}
	if v := p.MustElement(`li.member[data-site="mangadex"] .member-acts input[name="offset"]`).MustProperty("value").Str(); v != "-11" {
		t.Fatalf("the offset field shows %q, want -11", v)
	}
}

// The Owner pages this round touched (the Lanes, a Lane with folded empty
// passes, the failing worklist, Force's question), at 360 and 1280 px,
// light and dark: axe finds nothing serious, nothing scrolls sideways but
// the tables in their own boxes, every time shows its UTC time on hover,
// and a fold opens to its passes.
func TestBrowserOwnerPagesAtEveryWidth(t *testing.T) {
	chromiumtest.Require(t)
	src := axeSource(t)
	f := newFixture(t, "")
	now := f.clock.Now()
	for i := 1; i <= 6; i++ {
		at := now.Add(-time.Duration(i) * time.Minute)
		if _, err := f.st.InsertPass(context.Background(), store.Pass{Site: "mangadex", StartedAt: at, FinishedAt: at.Add(time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	p := openPage(t).CancelTimeout().Timeout(6 * time.Minute)
	browserLogin(t, p, f.srv.URL, f.ownerToken)
	paths := []string{"/admin", "/admin/lanes/weebcentral", "/admin/lanes/mangadex", "/admin/failing", "/admin/series/weebcentral/3/force?back=/admin/lanes/weebcentral"}
	for _, c := range []struct {
		width  int
		scheme string
	}{{360, "light"}, {360, "dark"}, {1280, "light"}, {1280, "dark"}} {
		p.MustSetViewport(c.width, 800, 1, c.width < 600)
		setScheme(t, p, c.scheme)
		for _, path := range paths {
			p.MustNavigate(f.srv.URL + path).MustWaitLoad()
			if w := p.MustEval(`() => document.documentElement.scrollWidth`).Int(); w > c.width {
				t.Errorf("%s at %d px %s scrolls sideways (%d px)", path, c.width, c.scheme, w)
			}
			for _, v := range axeSerious(t, p, src) {
				t.Errorf("%s at %d px %s: %s", path, c.width, c.scheme, v)
			}
			assertNamed(t, p)
			if bad := p.MustEval(`() => [...document.querySelectorAll('time')].filter(e => !/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/.test(e.title)).length`).Int(); bad > 0 {
				t.Errorf("%s: %d times without their UTC time on hover", path, bad)
			}
		}
	}
	p.MustNavigate(f.srv.URL + "/admin/lanes/mangadex").MustWaitLoad()
	fold := p.MustElement(`tr.folded[data-folded="6"] details`)
	fold.MustElement("summary").MustClick()
	if !fold.MustElement("p").MustVisible() || !strings.Contains(fold.MustElement("p").MustText(), "1 min ago") {
		t.Fatal("the fold of six empty passes does not open to them")
	}
}
