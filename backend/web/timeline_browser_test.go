package web_test

import (
	"strconv"
	"testing"
	"time"

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
	cards := p.MustEval(`() => Array.from(document.querySelectorAll('ul.library li.item')).map(li => {
		const when = li.querySelector('.when');
		const r = when ? when.getBoundingClientRect() : null;
		return { id: li.dataset.workId || li.dataset.site + '/' + li.dataset.seriesId, h: li.getBoundingClientRect().height,
			when: when ? when.textContent : '', shown: !!r && r.height > 0 && r.right <= li.getBoundingClientRect().right };
	})`).Arr()
	t.Log(p.MustEval(`() => Array.from(document.querySelectorAll('ul.library li.item .when')).map(e => e.clientWidth + '/' + e.scrollWidth + ' ' + e.textContent).join(' | ')`).Str())
	want := map[string]string{
		"mangapill/3":               "checked 10 min ago · next ≤ 50 min · late: no sign anywhere",
		"weebcentral/1":             "checked 30 min ago · next ≤ 30 min · late: weebcentral failing since 21 Nov",
		strconv.FormatInt(work, 10): "checked 1 h ago · due now · next ch. around 7 Dec ± 1 day",
	}
	for _, c := range cards {
		id, h, when := c.Get("id").Str(), c.Get("h").Num(), c.Get("when").Str()
		if h > 96 {
			t.Errorf("card %s is %.0f px tall at 360 px, want at most 96", id, h)
		}
		if w, ok := want[id]; ok {
			if when != w || !c.Get("shown").Bool() {
				t.Errorf("card %s's time line %q (shown %v), want %q", id, when, c.Get("shown").Bool(), w)
			}
			delete(want, id)
		}
	}
	for id := range want {
		t.Errorf("no card %s", id)
	}
	for _, v := range axeSerious(t, p, src) {
		t.Errorf("library: %s", v)
	}
	p.MustNavigate(f.srv.URL + "/series/mangapill/3").MustWaitLoad()
	for _, v := range axeSerious(t, p, src) {
		t.Errorf("Series page: %s", v)
	}
}
