package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/browser/chromiumtest"
)

// Updates in a real Chromium at 360 and 1280 px, light and dark: the
// rows by day with their times, no sideways scroll, 44 px touch targets,
// no control a screen reader cannot name and nothing axe-core calls
// serious; Mark read by the keys (j, m) at 360 px and by the button at
// 1280 px, each back on Updates at the row, read; ? opens the help and o
// the story's page.
func TestBrowserUpdates(t *testing.T) {
	chromiumtest.Require(t)
	src := axeSource(t)
	f := newFixture(t, "")
	seedUpdates(t, f)
	ctx := context.Background()
	p := openPage(t).CancelTimeout().Timeout(6 * time.Minute)
	browserLogin(t, p, f.srv.URL, f.readerToken)
	scheme := func(s string) {
		t.Helper()
		if err := (proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{{Name: "prefers-color-scheme", Value: s}}}).Call(p); err != nil {
			t.Fatal(err)
		}
	}
	rows := func() string {
		return p.MustEval(`() => Array.from(document.querySelectorAll('ul.updates li.item'))
			.map(li => li.dataset.seriesId + (li.dataset.new === 'true' ? '' : ' read')).join(',')`).Str()
	}
	for _, width := range []int{360, 1280} {
		p.MustSetViewport(width, 800, 1, width < 600)
		if err := f.st.SetProgress(ctx, 2, "mangapill", "2", "8", "", f.clock.Now()); err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"light", "dark"} {
			scheme(s)
			p.MustNavigate(f.srv.URL + "/updates").MustWaitLoad()
			if got := rows(); got != "3 read,2,2" {
				t.Fatalf("%d px %s: rows %q", width, s, got)
			}
			if h := p.MustEval(`() => Array.from(document.querySelectorAll('main section > h2')).map(h => h.textContent).join(',')`).Str(); h != "Today,Yesterday" {
				t.Fatalf("%d px: day headings %q", width, h)
			}
			if tt := p.MustElement(`ul.updates time`).MustAttribute("title"); tt == nil || !strings.HasSuffix(*tt, " UTC") {
				t.Fatalf("the time has no UTC title: %v", tt)
			}
			if sw := p.MustEval(`() => document.documentElement.scrollWidth`).Int(); sw > width {
				t.Errorf("%d px %s: the page scrolls sideways (%d px)", width, s, sw)
			}
			small := p.MustEval(`() => Array.from(document.querySelectorAll('ul.updates button, .pager a, header nav button'))
				.filter(e => e.getBoundingClientRect().height > 0 && e.getBoundingClientRect().height < 44).map(e => e.outerHTML.slice(0, 80))`).Arr()
			for _, e := range small {
				t.Errorf("%d px: touch target under 44 px: %s", width, e.Str())
			}
			assertNamed(t, p)
			for _, v := range axeSerious(t, p, src) {
				t.Errorf("/updates at %d px (%s): %s", width, s, v)
			}
		}
		if width == 360 {
			// The keys: j j selects chapter 9's row, m marks it read.
			key := func(r rune) { p.Keyboard.MustType(input.Key(r)) }
			key('j')
			key('j')
			if sel := p.MustEval(`() => { const li = document.querySelector('ul.updates li.item.selected'); return li ? li.querySelector('.meta a').textContent : '' }`).Str(); !strings.HasPrefix(sel, "Ch. 9") {
				t.Fatalf("j j selected %q, want chapter 9", sel)
			}
			wait := p.MustWaitNavigation()
			key('m')
			wait()
			p.MustWaitLoad()
		} else {
			submit(p, `ul.updates li.item[data-new="true"] form[action="/updates/read"] button`)
		}
		u := p.MustInfo().URL
		if !strings.Contains(u, "/updates?done=read#u") {
			t.Fatalf("%d px: Mark read returned to %s", width, u)
		}
		if !p.MustHas(`#flash[role="status"]`) {
			t.Fatalf("%d px: no word of what Mark read did", width)
		}
		if got := rows(); got != "3 read,2 read,2 read" {
			t.Fatalf("%d px: rows after Mark read %q", width, got)
		}
		if pr, _ := f.st.GetProgress(ctx, 2, "mangapill", "2"); pr.Number != "9" {
			t.Fatalf("%d px: Progress after Mark read: %+v", width, pr)
		}
	}
	// ? opens the help; o opens the selected row's story.
	p.Keyboard.MustType(input.Key('?'))
	p.MustWait(`() => document.getElementById('keyhelp').open`)
	p.Keyboard.MustType(input.Escape)
	p.MustWait(`() => !document.getElementById('keyhelp').open`)
	p.Keyboard.MustType(input.Key('j'))
	wait := p.MustWaitNavigation()
	p.Keyboard.MustType(input.Key('o'))
	wait()
	p.MustWaitLoad()
	if u := p.MustInfo().URL; !strings.HasSuffix(u, "/series/mangapill/3") {
		t.Fatalf("o opened %s, want the first row's Series page", u)
	}
}
