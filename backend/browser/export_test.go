package browser

import (
	"context"
	"time"
)

// DropSocket closes the Browser's DevTools socket under it, as a network
// cut would, leaving the browser and its tab running.
func DropSocket(b *Browser) {
	b.mu.Lock()
	c := b.c
	b.mu.Unlock()
	if c != nil {
		_ = c.ws.Close()
		<-c.lost
	}
}

// tabCrashed reports whether the Browser's current tab crashed.
func (b *Browser) tabCrashed() bool {
	b.mu.Lock()
	c := b.c
	b.mu.Unlock()
	return c != nil && c.crashedTab()
}

// crashTab has Chrome crash the renderer of the Browser's current tab
// (Page.crash), as a page that exhausts its renderer does, leaving every
// other process alone. It reports whether there was a tab to crash.
func (b *Browser) crashTab() bool {
	b.mu.Lock()
	c := b.c
	b.mu.Unlock()
	if c == nil {
		return false
	}
	t := c.current()
	if t == nil {
		return false
	}
	// The renderer dies before it can answer; the call ends with the tab.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = c.tabCall(ctx, t, "Page.crash", nil, nil)
	return true
}

// LargestFrame returns the largest DevTools message announced on the
// Browser's connection so far, and whether it holds one.
func LargestFrame(b *Browser) (int64, bool) {
	b.mu.Lock()
	c := b.c
	b.mu.Unlock()
	if c == nil {
		return 0, false
	}
	return c.frames.largest.Load(), true
}
