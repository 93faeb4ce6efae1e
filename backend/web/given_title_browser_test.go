package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/browser/chromiumtest"
)

// A Reader's import titles two never-read Series, one with 10 kB of
// title in one unbroken word and one with a right-to-left override: at
// 360 and 1280 px, light and dark, in the library (list and grid) and on
// the Series page, the titles read as cleaned (cut at 300 characters, no
// override), nothing runs past the viewport, and axe finds nothing
// serious.
func TestBrowserGivenTitleCards(t *testing.T) {
	chromiumtest.Require(t)
	src := axeSource(t)
	f := newFixture(t, "")
	long := strings.Repeat("Ab", 5000)
	csv := "url,title\nhttps://mangapill.test/series/921," + long + "\nhttps://mangapill.test/series/922,Evil\u202etxt.exe Story\n"
	c := f.login(t, f.readerToken)
	if a := f.postFile(t, c, f.csrf(t, c, "/import"), "mine.csv", []byte(csv)); a.code != http.StatusSeeOther {
		t.Fatalf("upload: %d %s", a.code, a.body)
	}
	p := openPage(t).CancelTimeout().Timeout(4 * time.Minute)
	browserLogin(t, p, f.srv.URL, f.readerToken)
	for _, width := range []int{360, 1280} {
		p.MustSetViewport(width, 800, 1, width < 600)
		for _, s := range []string{"light", "dark"} {
			scheme(t, p, s)
			for _, path := range []string{"/?site=mangapill&view=list", "/?site=mangapill&view=grid", "/series/mangapill/921", "/series/mangapill/922"} {
				at := fmt.Sprintf("%s %s at %d px", path, s, width)
				p.MustNavigate(f.srv.URL + path).MustWaitLoad()
				got := p.MustEval(`() => ({
					over: document.documentElement.scrollWidth - innerWidth,
					long: Array.from(document.querySelectorAll('a, h1, h2, h3')).map(e => e.textContent.trim()).filter(x => x.startsWith('AbAb')).map(x => x.length),
					evil: document.body.textContent.includes('Eviltxt.exe Story'),
					override: document.body.textContent.includes('\u202e')
				})`)
				if over := got.Get("over").Int(); over > 0 {
					t.Errorf("%s: the page runs %d px past the viewport", at, over)
				}
				if path != "/series/mangapill/922" && len(got.Get("long").Arr()) == 0 {
					t.Errorf("%s: the long title is not shown", at)
				}
				for _, n := range got.Get("long").Arr() {
					if n.Int() != 300 {
						t.Errorf("%s: the long title shows %d characters, want 300", at, n.Int())
					}
				}
				if path != "/series/mangapill/921" && !got.Get("evil").Bool() {
					t.Errorf("%s: the cleaned title is not shown", at)
				}
				if got.Get("override").Bool() {
					t.Errorf("%s: a right-to-left override reached the page", at)
				}
				for _, v := range axeSerious(t, p, src) {
					t.Errorf("%s: %s", at, v)
				}
			}
		}
	}
}
