package userscript_test

import (
	"context"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// panelTag is the element the panel's closed shadow root hangs on.
const panelTag = "mangabookmark-panel"

// panelEl finds the panel's element with this id inside its closed shadow
// root. DevTools sees closed roots; a page script does not.
func panelEl(page *rod.Page, id string) (*rod.Element, error) {
	p := page.Timeout(3 * time.Second)
	host, err := p.Element(panelTag)
	if err != nil {
		// A panel in the page's own DOM (the script before its panel was
		// closed), so a test shows what it catches there too.
		return page.Timeout(time.Second).Element("#" + id)
	}
	sr, err := host.ShadowRoot()
	if err != nil {
		return nil, err
	}
	return sr.Element("#" + id)
}

// panelState is an element of the panel: its text, title and whether it
// shows; ok is false while the panel is not there.
func panelState(page *rod.Page, id string) (text, title string, shown, ok bool) {
	e, err := panelEl(page, id)
	if err != nil {
		return "", "", false, false
	}
	res, err := e.Timeout(3 * time.Second).Eval(`() => [this.textContent, this.title, this.style.display !== 'none']`)
	if err != nil {
		return "", "", false, false
	}
	a := res.Value.Arr()
	return a[0].Str(), a[1].Str(), a[2].Bool(), true
}

// waitPanel polls the panel's element id until cond holds, for 40 s.
func waitPanel(t *testing.T, page *rod.Page, id string, what string, cond func(text, title string, shown bool) bool) {
	t.Helper()
	deadline := time.Now().Add(40 * time.Second)
	for time.Now().Before(deadline) {
		if text, title, shown, ok := panelState(page, id); ok && cond(text, title, shown) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	text, title, shown, _ := panelState(page, id)
	t.Fatalf("never true: %s (#%s: %q, title %q, shown %t)", what, id, text, title, shown)
}

func isShown(_, _ string, shown bool) bool  { return shown }
func isHidden(_, _ string, shown bool) bool { return !shown }

// clickPanel clicks the panel's element id with the real mouse, as the
// Reader does.
func clickPanel(t *testing.T, page *rod.Page, id string) {
	t.Helper()
	e, err := panelEl(page, id)
	if err != nil {
		t.Fatalf("panel #%s: %v", id, err)
	}
	shape, err := e.Shape()
	if err != nil || len(shape.Quads) == 0 {
		t.Fatalf("panel #%s has no box: %v", id, err)
	}
	pt := shape.OnePointInside()
	if err := page.Mouse.MoveTo(*pt); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
}

// gesture is one real wheel turn over the page, as a Reader scrolling.
func gesture(page *rod.Page) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	return proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseWheel, X: 20, Y: 20, DeltaY: 40}.Call(page.Context(ctx))
}

// keepReading is a Reader at the page for the rest of the test: a real
// wheel turn every 400 ms (the userscript records a read only after a
// real gesture since the URL changed).
func keepReading(t *testing.T, page *rod.Page) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(400 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				_ = gesture(page)
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second): // a call stuck behind a dialog ends with the tab
		}
	})
}
