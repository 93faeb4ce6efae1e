package web_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/browser/chromiumtest"
)

// On a 360 px phone the card shows its time line (freshness, the expected
// window, why it is late), a Work's card too, each card within the
// library's 96 px, and axe finds nothing serious, light and dark.
func TestBrowserCardTellsTime(t *testing.T) {
	chromiumtest.Require(t)
	src := axeSource(t)
	f := newFixture(t, "")
	seedTimeLines(t, f)
	work := seedWork(t, f)
	p := openPage(t).CancelTimeout().Timeout(4 * time.Minute)
	p.MustSetViewport(360, 780, 2, true)
	browserLogin(t, p, f.srv.URL, f.readerToken)
	// Each card's height, its time lines, and whether each line's words
	// (a Work's before its chips) show whole, not cut by the line's end.
	cards := p.MustEval(`() => Array.from(document.querySelectorAll('ul.library li.item')).map(li => {
		const lines = Array.from(li.querySelectorAll('.time p'));
		const cut = lines.some(l => {
			const r = document.createRange();
			r.setStart(l, 0);
			const chip = l.querySelector('.chip');
			if (chip) { r.setEndBefore(chip); } else { r.setEnd(l, l.childNodes.length); }
			return r.getBoundingClientRect().right > l.getBoundingClientRect().right + 0.5;
		});
		return { id: li.dataset.workId || li.dataset.site + '/' + li.dataset.seriesId, h: li.getBoundingClientRect().height,
			when: lines.map(l => l.textContent).join(' | '), cut: cut };
	})`).Arr()
	want := map[string]string{
		"mangapill/3":               "checked 10 min ago · next ≤ 50 min | late, no sign anywhere",
		"weebcentral/1":             "checked 30 min ago · next ≤ 30 min | releasing · late: weebcentral failing",
		strconv.FormatInt(work, 10): "checked 1 h ago · due now | around 7 Dec ± 1 day · mangadex 12 mangapill 9",
	}
	for _, c := range cards {
		id, h, when := c.Get("id").Str(), c.Get("h").Num(), c.Get("when").Str()
		if h > 96 {
			t.Errorf("card %s is %.0f px tall at 360 px, want at most 96", id, h)
		}
		if c.Get("cut").Bool() {
			t.Errorf("card %s's time line is cut at 360 px: %q", id, when)
		}
		if w, ok := want[id]; ok {
			if when != w {
				t.Errorf("card %s's time line %q, want %q", id, when, w)
			}
			delete(want, id)
		}
	}
	for id := range want {
		t.Errorf("no card %s", id)
	}
	if w := p.MustEval(`() => document.documentElement.scrollWidth`).Int(); w > 360 {
		t.Errorf("the library scrolls sideways at 360 px: %d px", w)
	}
	for _, v := range axeSerious(t, p, src) {
		t.Errorf("library: %s", v)
	}
	p.MustNavigate(f.srv.URL + "/series/mangapill/3").MustWaitLoad()
	for _, v := range axeSerious(t, p, src) {
		t.Errorf("Series page: %s", v)
	}
}

// A browser near the date line (UTC+14) stores its zone in the tz cookie
// from its first page, and the next library page names the weekly story's
// day in it: Sunday, where UTC says Saturday.
func TestBrowserCardDaysInBrowserZone(t *testing.T) {
	chromiumtest.Require(t)
	f := newFixture(t, "")
	seedTimeLines(t, f)
	p := openPage(t).CancelTimeout().Timeout(2 * time.Minute)
	if err := (proto.EmulationSetTimezoneOverride{TimezoneID: "Pacific/Kiritimati"}).Call(p); err != nil {
		t.Fatal(err)
	}
	browserLogin(t, p, f.srv.URL, f.readerToken)
	p.MustNavigate(f.srv.URL + "/").MustWaitLoad()
	if c := p.MustEval(`() => document.cookie`).Str(); !strings.Contains(c, "tz=Pacific/Kiritimati") {
		t.Fatalf("cookies %q, want the browser's zone", c)
	}
	when := p.MustEval(`() => document.querySelector('li.item[data-site="mangapill"][data-series-id="2"] .time').textContent`).Str()
	if !strings.Contains(when, "around Sun ± 1 day") {
		t.Fatalf("the card says %q, want around Sun in the browser's zone", when)
	}
}
