package web_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/browser/chromiumtest"
)

// The acts keep the Reader's place, in a real Chromium at 360 and 1280
// px, light and dark: Mark read from page 2 of a filtered, sorted library
// returns there (and to the same scroll) with a flash; Remove then Undo
// puts the card back with its Progress; ticking two cards shows the select
// toolbar, whose Mark read marks both; axe finds nothing serious on the
// library with a flash and the toolbar, nor on a Series page refusing a
// Progress value beside its field.
func TestBrowserActsKeepThePlace(t *testing.T) {
	chromiumtest.Require(t)
	src := axeSource(t)
	f := newFixture(t, "")
	seedMany(t, f, 70) // m0..m69, "Title 070".."Title 001", Latest 10, no Progress
	ctx := context.Background()
	p := openPage(t).CancelTimeout().Timeout(8 * time.Minute)
	browserLogin(t, p, f.srv.URL, f.readerToken)
	axe := func(what string) {
		t.Helper()
		for _, v := range axeSerious(t, p, src) {
			t.Errorf("%s: %s", what, v)
		}
	}
	progress := func(id string) string {
		pr, _ := f.st.GetProgress(ctx, 2, "mangapill", id)
		return pr.Number
	}
	flash := func() string {
		el, err := p.Timeout(10 * time.Second).Element(`#flash[role="status"]`)
		if err != nil {
			t.Fatalf("no flash on %s", p.MustInfo().URL)
		}
		return el.MustText()
	}
	i := 0
	for _, width := range []int{360, 1280} {
		for _, scheme := range []string{"light", "dark"} {
			name := fmt.Sprintf("%d px %s", width, scheme)
			p.MustSetViewport(width, 780, 1, width < 500)
			if err := (proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}).Call(p); err != nil {
				t.Fatal(err)
			}

			// Mark read from page 2 of a filtered, sorted library.
			back := "/?q=title&sort=title&page=2"
			p.MustNavigate(f.srv.URL + back).MustWaitLoad()
			id := fmt.Sprintf("m%d", i) // page 2 holds Title 061..070: m9..m0
			card := p.MustElement(`li.item[data-series-id="` + id + `"]`)
			card.MustScrollIntoView()
			y := p.MustEval(`() => window.scrollY`).Num()
			wait := p.MustWaitNavigation()
			p.MustElement(`li.item[data-series-id="` + id + `"] button.mark`).MustClick()
			wait()
			p.MustWaitLoad()
			if u := p.MustInfo().URL; u != f.srv.URL+back {
				t.Fatalf("%s: Mark read returned to %s, want %s", name, u, back)
			}
			if msg := flash(); !strings.HasPrefix(msg, "Marked read up to ch. 10:") {
				t.Fatalf("%s: flash %q", name, msg)
			}
			if got := p.MustEval(`() => window.scrollY`).Num(); math.Abs(got-y) > 2 {
				t.Errorf("%s: scroll %v after Mark read, was %v", name, got, y)
			}
			if progress(id) != "10" {
				t.Fatalf("%s: %s not marked read", name, id)
			}

			// Remove, then Undo: the card and its Progress come back.
			p.MustNavigate(f.srv.URL + "/").MustWaitLoad()
			p.MustElement(`li.item[data-series-id="2"] details.menu summary`).MustClick()
			wait = p.MustWaitNavigation()
			p.MustElement(`li.item[data-series-id="2"] button.danger`).MustClick()
			wait()
			p.MustWaitLoad()
			if msg := flash(); !strings.HasPrefix(msg, "Removed ") || !strings.Contains(msg, "Undo") {
				t.Fatalf("%s: flash after Remove %q", name, msg)
			}
			if p.MustHas(`li.item[data-series-id="2"]`) || progress("2") != "" {
				t.Fatalf("%s: Remove left the card or its Progress", name)
			}
			axe(name + ": the library with Remove's flash")
			submit(p, `#flash button`)
			if msg := flash(); !strings.HasPrefix(msg, "Put back:") {
				t.Fatalf("%s: flash after Undo %q", name, msg)
			}
			if !p.MustHas(`li.item[data-series-id="2"]`) || progress("2") != "8" {
				t.Fatalf("%s: Undo did not restore the card with Progress 8 (has %q)", name, progress("2"))
			}

			// Bulk Mark read: tick two cards, the toolbar shows, one post.
			p.MustNavigate(f.srv.URL + "/?sort=title").MustWaitLoad()
			a, b := fmt.Sprintf("m%d", 69-2*i), fmt.Sprintf("m%d", 68-2*i)
			if p.MustElement(".bulk-bar").MustVisible() {
				t.Fatalf("%s: the select toolbar shows with nothing ticked", name)
			}
			for _, id := range []string{a, b} {
				p.MustElement(`li.item[data-series-id="` + id + `"] .pick input`).MustClick()
			}
			bar := p.MustElement(".bulk-bar")
			bar.MustWaitVisible()
			if txt := p.MustElement("#picked").MustText(); txt != "2 selected:" {
				t.Errorf("%s: the toolbar counts %q", name, txt)
			}
			if inView(t, p, bar) == false {
				t.Errorf("%s: the select toolbar is out of the viewport", name)
			}
			axe(name + ": the library with the select toolbar")
			submit(p, `.bulk-bar button[value="read"]`)
			if msg := flash(); !strings.Contains(msg, "Marked 2 stories read") {
				t.Fatalf("%s: flash after bulk read %q", name, msg)
			}
			if progress(a) != "10" || progress(b) != "10" {
				t.Fatalf("%s: bulk Mark read: %s %q, %s %q", name, a, progress(a), b, progress(b))
			}
			if u := p.MustInfo().URL; u != f.srv.URL+"/?sort=title" {
				t.Errorf("%s: bulk Mark read returned to %s", name, u)
			}

			// A refused Progress value, on the same page beside the field.
			p.MustNavigate(f.srv.URL + "/series/mangapill/3").MustWaitLoad()
			p.MustElement("#number").MustSelectAllText().MustInput("-4")
			submit(p, `form[action$="/progress"] button`)
			if txt := p.MustElement("#number-error").MustText(); !strings.HasPrefix(txt, "Not saved:") {
				t.Fatalf("%s: the refusal beside the field: %q", name, txt)
			}
			if v := p.MustElement("#number").MustProperty("value").Str(); v != "-4" {
				t.Errorf("%s: the field holds %q, want what was typed", name, v)
			}
			axe(name + ": a Series page refusing a Progress value")
			p.MustElement("#number").MustSelectAllText().MustInput("19")
			submit(p, `form[action$="/progress"] button`)
			if msg := flash(); !strings.HasPrefix(msg, "Progress set to ch. 19:") {
				t.Fatalf("%s: flash after Set progress %q", name, msg)
			}
			i++
		}
	}
}

// inView reports whether el lies wholly inside the viewport.
func inView(t *testing.T, p *rod.Page, el *rod.Element) bool {
	t.Helper()
	return el.MustEval(`function () { const r = this.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }`).Bool()
}
