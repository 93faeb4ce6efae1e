package web_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/browser/chromiumtest"
)

// The library on a 360 px phone: every list card at most 96 px tall, every
// button and menu at least 44 px (touch targets), and the keys that drive
// it: / filter, j and k move, m marks read, o opens the Series page, whose
// controls then work and return to it.
func TestBrowserLibraryPhoneAndKeys(t *testing.T) {
	chromiumtest.Require(t)
	f := newFixture(t, "")
	seedMany(t, f, 6)
	p := openPage(t).CancelTimeout().Timeout(4 * time.Minute)
	p.MustSetViewport(360, 780, 2, true)
	browserLogin(t, p, f.srv.URL, f.readerToken)
	heights := p.MustEval(`() => Array.from(document.querySelectorAll('ul.library li.item')).map(li => li.getBoundingClientRect().height)`).Arr()
	if len(heights) != 10 {
		t.Fatalf("%d cards, want 10", len(heights))
	}
	for i, h := range heights {
		if h.Num() > 96 {
			t.Errorf("card %d is %.0f px tall at 360 px, want at most 96", i, h.Num())
		}
	}
	small := p.MustEval(`() => Array.from(document.querySelectorAll('ul.library button, ul.library summary, .filters button, .filters select, .filters input'))
		.filter(e => e.getBoundingClientRect().height > 0 && e.getBoundingClientRect().height < 44).map(e => e.outerHTML.slice(0, 80))`).Arr()
	for _, s := range small {
		t.Errorf("touch target under 44 px: %s", s.Str())
	}
	if w := p.MustEval(`() => document.documentElement.scrollWidth`).Int(); w > 360 {
		t.Errorf("the library scrolls sideways at 360 px: %d px", w)
	}
	selected := func() string {
		return p.MustEval(`() => { const li = document.querySelector('li.item.selected'); return li ? li.dataset.seriesId : '' }`).Str()
	}
	key := func(r rune) { p.Keyboard.MustType(input.Key(r)) }
	key('j')
	if s := selected(); s != "2" {
		t.Fatalf("j selected %q, want the first card (2)", s)
	}
	key('j')
	key('j')
	key('k')
	if s := selected(); s != "m0" {
		t.Fatalf("j j k selected %q, want the second card (m0)", s)
	}
	key('/')
	if id := p.MustEval(`() => document.activeElement.id`).Str(); id != "q" {
		t.Fatalf("/ focused %q, want the filter", id)
	}
	p.Keyboard.MustType(input.Escape)
	key('k') // back to the New Chapter
	wait := p.MustWaitNavigation()
	key('m')
	wait()
	p.MustWaitLoad()
	if pr, _ := f.st.GetProgress(context.Background(), 2, "mangapill", "2"); pr.Number != "9" {
		t.Fatalf("m did not mark the New Chapter read: %+v", pr)
	}
	if p.MustHas(`li.item[data-new="true"]`) {
		t.Fatal("the card is still New after m")
	}
	for i := 0; i < 10 && selected() != "2"; i++ { // the read card moved down
		key('j')
	}
	wait = p.MustWaitNavigation()
	key('o')
	wait()
	p.MustWaitLoad()
	if u := p.MustInfo().URL; !strings.HasSuffix(u, "/series/mangapill/2") {
		t.Fatalf("o opened %s, want the first card's Series page", u)
	}
	assertNamed(t, p)
	// The Series page's controls: a Progress correction returns here.
	p.MustElement("#number").MustSelectAllText().MustInput("4")
	submit(p, `form[action$="/progress"] button`)
	if u := p.MustInfo().URL; !strings.HasSuffix(u, "/series/mangapill/2") {
		t.Fatalf("the Progress form returned to %s", u)
	}
	if pr, _ := f.st.GetProgress(context.Background(), 2, "mangapill", "2"); pr.Number != "4" {
		t.Fatalf("progress after the correction: %+v", pr)
	}
	if txt := p.MustElement(".badge.new").MustText(); txt != "5 new" {
		t.Fatalf("the Series page's count after the correction: %q", txt)
	}
	p.MustElement("#mode").MustSelect("off")
	submit(p, `form.notify button`)
	if !p.MustHas(`#mode option[value="off"][selected]`) {
		t.Fatal("the notice mode was not saved")
	}
	submit(p, `form[action$="/remove"] button`)
	if p.MustHas(`li.item[data-series-id="2"]`) {
		t.Fatal("Remove on the Series page left the card")
	}
}

// axeSource is axe-core's script, installed by `npm ci` in tools/axe
// (.ci/run does it); without it the test skips unless CI is set.
func axeSource(t *testing.T) string {
	t.Helper()
	path := os.Getenv("AXE_CORE_JS")
	if path == "" {
		path = filepath.Join("..", "..", "tools", "axe", "node_modules", "axe-core", "axe.min.js")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("axe-core is missing (%v): run npm ci in tools/axe", err)
		}
		t.Skipf("axe-core is missing (%v): run npm ci in tools/axe", err)
	}
	return string(b)
}

// axeSerious runs axe-core in the page and lists its serious and critical
// violations, each with the elements it names.
func axeSerious(t *testing.T, p *rod.Page, src string) []string {
	t.Helper()
	if _, err := (proto.RuntimeEvaluate{Expression: src}).Call(p); err != nil {
		t.Fatalf("loading axe-core: %v", err)
	}
	res, err := p.Eval(`() => axe.run(document, { resultTypes: ['violations'] }).then(r => r.violations
		.filter(v => v.impact === 'serious' || v.impact === 'critical')
		.map(v => v.impact + ' ' + v.id + ': ' + v.help + ' at ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')))`)
	if err != nil {
		t.Fatalf("running axe-core: %v", err)
	}
	var out []string
	for _, v := range res.Value.Arr() {
		out = append(out, v.Str())
	}
	return out
}

// TestBrowserAccessibility runs axe-core on the Reader's pages (library,
// list and grid, with a Work's card; a Series page, a Work page, notices,
// import) and the Owner's /admin,
// in light and dark: no serious or critical violation.
func TestBrowserAccessibility(t *testing.T) {
	chromiumtest.Require(t)
	src := axeSource(t)
	f := newFixture(t, "")
	work := "/works/" + strconv.FormatInt(seedWork(t, f), 10)
	p := openPage(t).CancelTimeout().Timeout(8 * time.Minute)
	check := func(path string, schemes ...string) {
		t.Helper()
		for _, scheme := range schemes {
			if err := (proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}).Call(p); err != nil {
				t.Fatal(err)
			}
			p.MustNavigate(f.srv.URL + path).MustWaitLoad()
			for _, v := range axeSerious(t, p, src) {
				t.Errorf("%s (%s): %s", path, scheme, v)
			}
		}
	}
	browserLogin(t, p, f.srv.URL, f.readerToken)
	check("/", "light", "dark")
	check("/?view=grid", "light", "dark")
	check("/?view=list", "light")
	check("/series/mangapill/2", "light", "dark")
	check("/series/mangadex/w1", "light")
	check(work, "light", "dark")
	check(work+"?done=offset", "light")
	check("/notices", "light")
	check("/import", "light")
	p.MustSetCookies() // log out: the Owner's pages next
	browserLogin(t, p, f.srv.URL, f.ownerToken)
	check("/admin", "light", "dark")
	check("/admin/lanes/weebcentral", "light")
	check("/admin/failing", "light")
}
