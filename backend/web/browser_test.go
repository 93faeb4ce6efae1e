package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/browser/chromiumtest"
)

// openPage connects to a fresh Chromium and opens a blank tab. Its
// timeout bounds every step of the test after it together: a guard against
// a hung browser, sized for a loaded 2-core machine running the page
// handlers under the race detector (60 s was overrun there by a test that
// takes seconds alone); a test that needs longer sets its own.
func openPage(t *testing.T) *rod.Page {
	t.Helper()
	ws, _ := chromiumtest.Start(t)
	b := rod.New().ControlURL(ws)
	if err := b.Connect(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	page, err := b.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	return page.Timeout(4 * time.Minute)
}

// submit clicks a submit button and waits for the page it leads to.
func submit(p *rod.Page, selector string) {
	wait := p.MustWaitNavigation()
	p.MustElement(selector).MustClick()
	wait()
	p.MustWaitLoad()
}

// unnamed lists the page's controls and images a screen reader could not
// name: form fields without a label, images without alt, buttons and
// links without text or aria-label.
const unnamed = `() => {
  const bad = [];
  document.querySelectorAll('input:not([type=hidden]), select').forEach(e => { if (!e.labels || e.labels.length === 0) bad.push(e.outerHTML); });
  document.querySelectorAll('img').forEach(e => { if (!e.getAttribute('alt')) bad.push(e.outerHTML); });
  document.querySelectorAll('button, a[href], summary').forEach(e => { if (!(e.getAttribute('aria-label') || e.textContent.trim())) bad.push(e.outerHTML); });
  return bad;
}`

// assertNamed fails the test for every control unnamed finds.
func assertNamed(t *testing.T, p *rod.Page) {
	t.Helper()
	for _, e := range p.MustEval(unnamed).Arr() {
		t.Errorf("%s: unnamed control %s", p.MustInfo().URL, e.Str())
	}
}

// browserLogin logs in through the token form.
func browserLogin(t *testing.T, p *rod.Page, base, token string) {
	t.Helper()
	p.MustNavigate(base + "/").MustWaitLoad()
	assertNamed(t, p)
	p.MustElement("#token").MustInput(token)
	submit(p, `form[action="/login"] button[type=submit]`)
}

func TestBrowserReaderLibrary(t *testing.T) {
	chromiumtest.Require(t)
	f := newFixture(t, "")
	p := openPage(t)
	browserLogin(t, p, f.srv.URL, f.readerToken)
	if h := p.MustElement("h1").MustText(); h != "Your library" {
		t.Fatalf("after login: %q", h)
	}
	assertNamed(t, p)
	// The keyboard reaches the skip link first, then the page's own links.
	p.Keyboard.MustType(input.Tab)
	if f := p.MustEval(`() => document.activeElement.className`).Str(); f != "skip" {
		t.Errorf("first Tab stop is %q, want the skip link", f)
	}
	first := p.MustElement("li.item")
	if first.MustAttribute("data-new") == nil || *first.MustAttribute("data-new") != "true" || *first.MustAttribute("data-series-id") != "2" {
		t.Fatalf("first item is not the New Chapter: %s", first.MustHTML())
	}
	// The cover loaded through the session cookie (a failed image has no
	// size). A lazy image does not hold the load event, so wait until the
	// browser has finished with it (loaded or failed) before asking.
	p.MustWait(`() => { const i = document.querySelector('li.item img.cover'); return !!i && i.complete }`)
	if w := p.MustEval(`() => document.querySelector('li.item img.cover').naturalWidth`).Int(); w == 0 {
		t.Fatal("the cover did not load with the session")
	}
	submit(p, `li.item[data-series-id="2"] button[formaction$="/read"]`)
	if p.MustHas(`li.item[data-new="true"]`) || p.MustHas(".badge.new") {
		t.Fatal("the New Chapter marker stayed after mark read")
	}
	if p, _ := f.st.GetProgress(context.Background(), 2, "mangapill", "2"); p.Number != "9" {
		t.Fatalf("progress after mark read: %+v", p)
	}
	p.MustElement(`li.item[data-series-id="3"] details.menu summary`).MustClick() // Remove is in the card's menu
	submit(p, `li.item[data-series-id="3"] button[formaction$="/remove"]`)
	if p.MustHas(`li.item[data-series-id="3"]`) {
		t.Fatal("the removed Series is still listed")
	}
	// The text filter asks the server as one types (the few lines of JS).
	p.MustElement("#q").MustInput("never")
	p.Timeout(time.Minute).MustWait(`() => document.querySelectorAll('ul.library li.item').length === 1`)
	if id := p.MustElement("li.item").MustAttribute("data-series-id"); *id != "40" {
		t.Fatalf("typed filter shows %s, want Never Read Yet (40)", *id)
	}
	// A Reader's session gets 403 on the Owner's pages.
	status := 0
	wait := p.EachEvent(func(e *proto.NetworkResponseReceived) bool {
		if e.Type == proto.NetworkResourceTypeDocument && strings.HasSuffix(e.Response.URL, "/admin") {
			status = e.Response.Status
			return true
		}
		return false
	})
	p.MustNavigate(f.srv.URL + "/admin")
	wait()
	p.MustWaitLoad()
	if status != http.StatusForbidden {
		t.Fatalf("a Reader's /admin: %d", status)
	}
	if h := p.MustElement("h1").MustText(); h != "Owner only" {
		t.Fatalf("a Reader's /admin page: %q", h)
	}
}

func TestBrowserOwnerActs(t *testing.T) {
	chromiumtest.Require(t)
	f := newFixture(t, "")
	p := openPage(t)
	browserLogin(t, p, f.srv.URL, f.ownerToken)
	// The notice's deep link, as the Discord embed carries it.
	p.MustNavigate(f.srv.URL + "/admin/failing").MustWaitLoad()
	assertNamed(t, p)
	p.MustNavigate(f.srv.URL + "/admin").MustWaitLoad()
	assertNamed(t, p)
	submitLink := p.MustWaitNavigation()
	p.MustElement(`.notices a[href="/admin/lanes/weebcentral"]`).MustClick()
	submitLink()
	p.MustWaitLoad()
	if h := p.MustElement("h1").MustText(); h != "weebcentral Lane" {
		t.Fatalf("deep link landed on %q", h)
	}
	assertNamed(t, p)
	// Force asks once: its button opens the question, whose Yes acts.
	submit(p, `form[action="/admin/series/weebcentral/4/force"] button`)
	if h := p.MustElement("h1").MustText(); h != "Force a read?" {
		t.Fatalf("Force opened %q, not its question", h)
	}
	assertNamed(t, p)
	submit(p, `form[method="post"][action="/admin/series/weebcentral/4/force"] button`)
	if !strings.HasSuffix(p.MustInfo().URL, "/admin/lanes/weebcentral") {
		t.Fatalf("force returned to %s", p.MustInfo().URL)
	}
	var forced *time.Time
	_ = f.st.Pool().QueryRow(context.Background(), `SELECT force_poll_at FROM series WHERE site = 'weebcentral' AND series_id = '4'`).Scan(&forced)
	if forced == nil {
		t.Fatal("Force from the page forced nothing")
	}
	p.MustElement("details.pause summary").MustClick()
	p.MustElement(`select[name="for"]`).MustSelect("6 hours")
	p.MustElement(`input[name="reason"]`).MustInput("moving hosts")
	submit(p, `form[action="/admin/lanes/weebcentral/pause"] button[type=submit]`)
	lane := p.MustElement(`article.lane[data-site="weebcentral"]`)
	if s := *lane.MustAttribute("data-state"); s != "paused" || !strings.Contains(lane.MustText(), "moving hosts") {
		t.Fatalf("after pause: state %q, %s", s, lane.MustText())
	}
	if l := f.apiLanes(t)[3]; l.State != "paused" || !l.PausedUntil.Equal(f.clock.Now().Add(6*time.Hour)) {
		t.Fatalf("API after the page's pause: %+v", l)
	}
	// The admin pages never use the New Chapter ember.
	if ember := p.MustEval(`() => [...document.querySelectorAll('*')].some(e => getComputedStyle(e).color === 'rgb(185, 80, 15)' || getComputedStyle(e).backgroundColor === 'rgb(185, 80, 15)')`).Bool(); ember {
		t.Fatal("the admin page shows the ember colour")
	}
}
