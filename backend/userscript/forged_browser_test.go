package userscript_test

import (
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"mangabookmark/backend/browser/chromiumtest"
)

// readsFor are the reads the script sent for URLs containing part.
func readsFor(g *gmHost, part string) []map[string]any {
	var out []map[string]any
	for _, r := range g.posted() {
		if u, _ := r["url"].(string); strings.Contains(u, part) {
			out = append(out, r)
		}
	}
	return out
}

// watchStatus samples the panel's status for the given time and returns
// every status seen and the last tooltip.
func watchStatus(page *rod.Page, d time.Duration, stop func(text string) bool) (map[string]bool, string) {
	seen := map[string]bool{}
	var tip string
	for start := time.Now(); time.Since(start) < d; time.Sleep(200 * time.Millisecond) {
		var text string
		text, tip = panelStatus(page)
		seen[text] = true
		if stop != nil && stop(text) {
			break
		}
	}
	return seen, tip
}

// After a single-page navigation the title and header still name the
// chapter being left. A chapter that never renders is not read as that
// one (no read is sent, no ✓, and the panel ends on "⚠ not read" with the
// reason); one whose header changes late is read as its own number, and
// the stale number is never sent under its URL.
func TestUserscriptNeverReadsTheChapterBeingLeft(t *testing.T) {
	t.Parallel()
	e, hs := newRealSitesEnv(t)

	const first = "https://mangadex.org/chapter/f946ac53-0b71-4b5d-aeb2-7931b13c4aaa"
	const never = "0c7c8f1e-4e59-43b7-9365-09675a149a6f" // the app never renders it
	const late = "1d8d9f2f-5f6a-44c8-8476-1a786b25ab70"  // its header comes 2 s late
	const series = "487f1f04-75f3-4a2e-a4af-76e615e32585"
	page := sharedPage(t)
	routePages(t, page, map[string]string{first: strings.ReplaceAll(fixture(t, "mangadex-reader.html"), "RENDER_MS", "300")}, nil)
	g := installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	keepReading(t, page)
	nav(t, page, first)
	waitProgress(t, e.st, e.reader.ID, "mangadex", series, "6", 20*time.Second)
	waitStatus(t, page, "✓", 10*time.Second)

	// The app moves to the next chapter and never shows it.
	if _, err := page.Eval(`(id) => history.pushState({}, '', '/chapter/' + id)`, never); err != nil {
		t.Fatal(err)
	}
	seen, tip := watchStatus(page, 45*time.Second, func(text string) bool { return text == "⚠ not read" })
	if !seen["⚠ not read"] {
		t.Errorf("the chapter that never rendered did not end on ⚠ not read; the panel showed %v", seen)
	}
	if seen["✓"] {
		t.Errorf("the panel showed ✓ for a chapter that never rendered (%v)", seen)
	}
	if !strings.Contains(tip, "no chapter number") {
		t.Errorf("tooltip %q does not give the reason", tip)
	}
	if r := readsFor(g, never); len(r) != 0 {
		t.Errorf("reads sent for the chapter that never rendered: %v", r)
	}

	// The next one renders its header 2 s after the URL changes.
	if _, err := page.Eval(`(id) => {
		history.pushState({}, '', '/chapter/' + id);
		setTimeout(() => {
			document.querySelector('.reader--meta.chapter').textContent = 'Ch. 8';
			document.title = 'Ch. 8 - One Piece Omake - MangaDex';
		}, 2000);
	}`, late); err != nil {
		t.Fatal(err)
	}
	waitProgress(t, e.st, e.reader.ID, "mangadex", series, "8", 30*time.Second)
	waitStatus(t, page, "✓", 10*time.Second)
	for _, r := range readsFor(g, late) {
		if r["number"] != "8" {
			t.Errorf("read sent for the late chapter with number %v (the chapter left behind)", r["number"])
		}
	}
}

// A read needs the Reader at the page: a chapter page nobody touches is
// not read; a page script's pushState and its synthetic wheel, key, tap
// and click events (not trusted) do not count as the Reader; one real
// gesture on a page shown for a few seconds does.
func TestAPageScriptCannotMakeAReadWithoutTheReader(t *testing.T) {
	t.Parallel()
	e, hs := newRealSitesEnv(t)

	const chapter = "https://mangapill.com/chapters/2-11184000/one-piece-chapter-1184"
	page := sharedPage(t)
	routePages(t, page, map[string]string{chapter: fixture(t, "mangapill-reader.html")}, nil)
	g := installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	nav(t, page, chapter)
	waitPanel(t, page, "mb-status", "the panel waits for the Reader", func(text, title string, _ bool) bool {
		return text == "⋯ reading" && strings.Contains(title, "waiting for you")
	})
	// The page script forges a chapter and a Reader, over and over.
	if _, err := page.Eval(`() => {
		history.pushState({}, '', '/chapters/2-11999000/one-piece-chapter-1999');
		let n = 0;
		const id = setInterval(() => {
			for (const t of [window, document, document.body]) {
				t.dispatchEvent(new WheelEvent('wheel', { deltaY: 40, bubbles: true }));
				t.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
				t.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
				t.dispatchEvent(new TouchEvent('touchstart', { bubbles: true }));
			}
			document.body.click();
			window.scrollBy(0, 10);
			if (++n >= 20) clearInterval(id);
		}, 200);
	}`); err != nil {
		t.Fatal(err)
	}
	seen, _ := watchStatus(page, 8*time.Second, nil) // past DWELL_MS twice over
	if p := g.posted(); len(p) != 0 {
		t.Fatalf("reads sent without the Reader: %v", p)
	}
	if seen["✓"] {
		t.Errorf("the panel showed ✓ with no Reader at the page (%v)", seen)
	}
	// The Reader comes back to the chapter and scrolls once.
	nav(t, page, chapter)
	waitPanel(t, page, "mb-status", "the panel waits for the Reader", func(text, _ string, _ bool) bool { return text == "⋯ reading" })
	if err := gesture(page); err != nil {
		t.Fatal(err)
	}
	waitProgress(t, e.st, e.reader.ID, "mangapill", "2", "1184", 20*time.Second)
	if p := g.posted(); len(p) != 1 || p[0]["number"] != "1184" {
		t.Errorf("reads sent %v, want only 1184", p)
	}
	t.Logf("hostile inputs tried: %d", 1+20*(4*3+2))
}

// A tab behind another is not visible: the Reader's gestures there record
// nothing until it is brought to the front and shown for a few seconds.
// It runs alone (no t.Parallel): its tabs open in the browser's first
// window, and another test's tab there would be hidden by them.
func TestAHiddenTabRecordsNoRead(t *testing.T) {
	e, hs := newRealSitesEnv(t)
	const chapter = "https://mangapill.com/chapters/2-11184000/one-piece-chapter-1184"
	ws := chromiumtest.Shared(t).WSURL()
	page := openTab(t, ws, false)
	routePages(t, page, map[string]string{chapter: fixture(t, "mangapill-reader.html")}, nil)
	g := installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	nav(t, page, chapter)
	waitPanel(t, page, "mb-status", "the panel waits for the Reader", func(text, _ string, _ bool) bool { return text == "⋯ reading" })
	openTab(t, ws, false) // opened after it: now in front of it
	evalUntil(t, page, `() => document.visibilityState === 'hidden'`, "the chapter's tab is behind the new one")
	keepReading(t, page)
	if seen, _ := watchStatus(page, 6*time.Second, nil); seen["✓"] || len(g.posted()) != 0 {
		t.Fatalf("a hidden tab recorded a read: %v %v", seen, g.posted())
	}
	if _, err := page.Activate(); err != nil {
		t.Fatal(err)
	}
	waitProgress(t, e.st, e.reader.ID, "mangapill", "2", "1184", 30*time.Second)
}
