package userscript_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// panelAttack is a hostile Series page's script: it patches attachShadow
// to get (or open) any shadow root, restyles the panel's old Save button
// over the whole viewport and pre-fills the old token field with its own
// token, listens to every key, and can describe everything it can see of
// the panel (window.__fingerprint()).
const panelAttack = `<script>
window.__roots = 0;
window.__typed = '';
window.__tries = 0;
const attach = Element.prototype.attachShadow;
Element.prototype.attachShadow = function (o) { window.__roots++; return attach.call(this, Object.assign({}, o, { mode: 'open' })); };
document.addEventListener('keydown', (e) => { window.__typed += e.key; }, true);
document.addEventListener('input', (e) => { window.__typed += e.target.value || ''; }, true);
const css = document.createElement('style');
css.textContent = '#mb-settings, #mb-panel, mangabookmark-panel { display: block !important }' +
  ' #mb-save, mangabookmark-panel { position: fixed !important; left: 0 !important; top: 0 !important; width: 100vw !important;' +
  ' height: 100vh !important; opacity: .01 !important; z-index: 2147483647 !important }';
document.head.append(css);
const prefill = () => {
  window.__tries++;
  const t = document.getElementById('mb-token');
  if (t) t.value = 'mb_EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE';
  const u = document.getElementById('mb-url');
  if (u) u.value = '';
};
setInterval(prefill, 100);
window.__fingerprint = () => {
  const h = document.querySelector('mangabookmark-panel');
  const r = h ? h.getBoundingClientRect() : {};
  const cs = h ? getComputedStyle(h) : {};
  const ids = [...document.querySelectorAll('[id]')].map((e) => e.id + ':' + getComputedStyle(e).display + ':' + e.textContent + ':' + (e.title || ''));
  const hit = document.elementFromPoint(innerWidth - 20, innerHeight - 20);
  return JSON.stringify({
    host: !!h, shadow: h ? h.shadowRoot !== null : null, inner: h ? h.innerHTML : null, hostText: h ? h.textContent : null,
    rect: [r.x, r.y, r.width, r.height], display: cs.display, title: h ? h.title : null, attrs: h ? h.getAttributeNames() : [],
    text: document.documentElement.innerText, ids, hit: hit ? hit.tagName : null, roots: window.__roots,
  });
};
</script>`

// The panel is closed to the page: a Series page cannot tell whether the
// Series is bookmarked or has a New Chapter (everything it can see of the
// panel is the same on a bookmarked Series with the ember and on one not
// bookmarked), cannot open its shadow root, and one real click anywhere
// on a page that restyled and pre-filled the old settings form changes no
// setting.
func TestThePanelIsClosedToThePage(t *testing.T) {
	t.Parallel()
	e, hs := newRealSitesEnv(t)
	ctx := context.Background()
	// mangapill/2 is bookmarked, read to 1180, Latest 1184: the ember shows.
	if _, err := e.st.AddBookmark(ctx, e.reader.ID, "mangapill", "2", "https://mangapill.com/manga/2"); err != nil {
		t.Fatal(err)
	}
	storetest.SetSeries(ctx, t, e.st, storetest.SeriesSet{Site: "mangapill", IDs: []string{"2"}, LatestNumber: "1184"})
	if _, err := e.st.ApplyReads(ctx, []store.Read{{ReaderID: e.reader.ID, Site: "mangapill", SeriesID: "2",
		SeriesURL: "https://mangapill.com/manga/2", Number: "1180", URL: "https://mangapill.com/chapters/2-11180000/x", ReadAt: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	const bookmarked = "https://mangapill.com/manga/2/one-piece"
	const other = "https://mangapill.com/manga/3/other"
	page := sharedPage(t)
	routePages(t, page, map[string]string{
		bookmarked: "<!doctype html><html><head><title>Series</title>" + panelAttack + "</head><body><h1>Series</h1></body></html>",
		other:      "<!doctype html><html><head><title>Series</title>" + panelAttack + "</head><body><h1>Series</h1></body></html>",
	}, nil)
	g := installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	fingerprint := func() string {
		t.Helper()
		res, err := page.Timeout(5 * time.Second).Eval(`() => window.__fingerprint()`)
		if err != nil {
			t.Fatal(err)
		}
		return res.Value.Str()
	}

	nav(t, page, bookmarked)
	waitPanel(t, page, "mb-ember", "the ember on the bookmarked Series", isShown)
	withEmber := fingerprint()
	nav(t, page, other)
	waitPanel(t, page, "mb-bookmark", "+ bookmark on the Series not bookmarked", isShown)
	notBookmarked := fingerprint()
	if withEmber != notBookmarked {
		t.Errorf("the page tells a bookmarked Series with a New Chapter from one not bookmarked:\n%s\n%s", withEmber, notBookmarked)
	}
	for _, leak := range []string{"New Chapter", "bookmark", "mb-ember", "mb-status", "🔥", `"shadow":true`, `"roots":1`} {
		if strings.Contains(withEmber, leak) {
			t.Errorf("the page sees %q of the panel: %s", leak, withEmber)
		}
	}
	if !strings.Contains(withEmber, `"host":true`) {
		t.Fatalf("no panel host on the page: %s", withEmber)
	}

	// One real click in the middle of the page, over whatever the page
	// stretched there; then the Reader's own click on the status.
	if err := page.Mouse.MoveTo(proto.Point{X: 400, Y: 300}); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	clickPanel(t, page, "mb-status")
	evalUntil(t, page, `() => window.__tries > 20`, "the page pre-filled the form many times")
	if got := g.value("mb_token"); got != e.token {
		t.Errorf("one click swapped the token for %q", got)
	}
	if got := g.value("mb_base_url"); got != hs.URL {
		t.Errorf("one click changed the backend URL to %q", got)
	}
	if _, err := e.st.GetBookmark(ctx, e.reader.ID, "mangapill", "3"); err == nil {
		t.Error("a click outside the + bookmark link bookmarked the Series")
	}
	// The token is set from the manager's menu: the page hears no key of it.
	newToken := "mb_" + strings.Repeat("Q", 39) + "abcd"
	g.answer.Store(newToken)
	g.menu("Set token…")
	waitValue(t, g, "mb_token", newToken)
	if res, err := page.Eval(`() => window.__typed`); err != nil || strings.Contains(res.Value.Str(), "QQQQ") {
		t.Errorf("the page heard the token typed: %v %v", res, err)
	}
	t.Logf("hostile inputs tried: %d", 7+2+20)
}
