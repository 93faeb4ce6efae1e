package userscript_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/store"
)

// A Series page's script rewrites the panel host's inline style (the host
// is page DOM): it scales the host ×40 around "+ bookmark", puts that over
// the middle of the page and makes it nearly transparent, so one real
// click anywhere would bookmark a Series the page chose (the review's
// U3r). The click is not counted while the host is not as the script set
// it; once the page puts the host back, the Reader's own click bookmarks.
func TestAPageCannotSteerAClickOntoBookmark(t *testing.T) {
	t.Parallel()
	e, hs := newRealSitesEnv(t)
	ctx := context.Background()
	const chosen = "https://mangapill.com/manga/666999/free-gift"
	page := sharedPage(t)
	routePages(t, page, map[string]string{
		chosen: "<!doctype html><html><head><title>Series</title></head><body><h1>Series</h1><p>Click anywhere to continue</p></body></html>",
	}, nil)
	installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	nav(t, page, chosen)
	waitPanel(t, page, "mb-bookmark", "+ bookmark on the Series page", isShown)

	// Where "+ bookmark" is: an attacker knows the panel's layout.
	link, err := panelEl(page, "mb-bookmark")
	if err != nil {
		t.Fatal(err)
	}
	shape, err := link.Shape()
	if err != nil || len(shape.Quads) == 0 {
		t.Fatalf("+ bookmark has no box: %v", err)
	}
	c := shape.OnePointInside()
	const clickX, clickY = 200, 300
	if _, err := page.Eval(`(cx, cy, x, y) => {
		const h = document.querySelector('mangabookmark-panel');
		const r = h.getBoundingClientRect();
		window.__style = h.getAttribute('style');
		h.style.setProperty('transform-origin', (cx - r.left) + 'px ' + (cy - r.top) + 'px', 'important');
		h.style.setProperty('transform', 'translate(' + (x - cx) + 'px,' + (y - cy) + 'px) scale(40)', 'important');
		h.style.setProperty('opacity', '.01', 'important');
	}`, c.X, c.Y, clickX, clickY); err != nil {
		t.Fatal(err)
	}
	// The Reader clicks the page, not the panel.
	if err := page.Mouse.MoveTo(proto.Point{X: clickX, Y: clickY}); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	waitPanel(t, page, "mb-bookmark", "the steered click refused", func(text, title string, shown bool) bool {
		return shown && text == "⚠ click again" && strings.Contains(title, "The page moved this panel")
	})
	if _, err := e.st.GetBookmark(ctx, e.reader.ID, "mangapill", "666999"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("one click on the page bookmarked the Series the page chose (%v)", err)
	}

	// The page puts the host back; the Reader's own click on the link counts.
	if _, err := page.Eval(`() => document.querySelector('mangabookmark-panel').setAttribute('style', window.__style)`); err != nil {
		t.Fatal(err)
	}
	// A Reader's click comes frames after the page's restyle, never in the
	// same one: wait until two frames have been drawn with the host back.
	if _, err := page.Eval(`() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`); err != nil {
		t.Fatal(err)
	}
	clickPanel(t, page, "mb-bookmark")
	waitPanel(t, page, "mb-bookmark", "+ bookmark hidden once bookmarked", isHidden)
	if _, err := e.st.GetBookmark(ctx, e.reader.ID, "mangapill", "666999"); err != nil {
		t.Fatalf("the Reader's own click did not bookmark: %v", err)
	}
}
