package userscript_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
)

// The queue is bounded: past QUEUE_MAX the oldest read is dropped with a
// toast; a refused token (401) is toasted and keeps the queue; a token the
// Reader sets from the manager's menu drains it.
func TestUserscriptFullQueueAnd401Toasts(t *testing.T) {
	t.Parallel()
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 2})
	e, hs := newRealSitesEnv(t)

	page := sharedPage(t)
	routePages(t, page, nil, map[string]string{"mangapill.com": sim.Origin("mangapill")})
	g := installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": "mb_" + strings.Repeat("A", 43)}, e.js)
	keepReading(t, page)
	g.offline.Store(true) // every request fails as a dropped connection
	id := sim.SeriesIDs("mangapill", 1)[0]
	origin := "https://mangapill.com"
	chapter := func(n int) string { return fmt.Sprintf("%s/chapters/%s-1%07d/s-chapter-%d", origin, id, n*1000, n) }
	nav(t, page, chapter(1))
	waitStatus(t, page, "⟳ 1 pending", 30*time.Second)

	// 199 reads more wait in the queue (as after a long time offline); one
	// more chapter page is one past QUEUE_MAX.
	q := g.queue()
	for n := 2; n <= 200; n++ {
		q = append(q, map[string]any{"site": "mangapill", "series_id": id, "number": fmt.Sprint(n), "url": chapter(n), "read_at": "2026-12-01T10:00:00Z"})
	}
	g.setJSON("mb_queue", q)
	nav(t, page, chapter(201))
	waitStatus(t, page, "⟳ 200 pending", 60*time.Second)
	waitPanel(t, page, "mb-toast", "full-queue toast", func(text, _ string, shown bool) bool { return shown && strings.Contains(text, "queue is full") })
	deadline := time.Now().Add(10 * time.Second)
	for {
		q := g.queue()
		if len(q) == 200 && q[0]["number"] == "2" && q[199]["number"] == "201" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("queue %d reads, oldest %v; want 200 from chapter 2 to 201 (chapter 1 dropped)", len(q), q[0]["number"])
		}
		time.Sleep(100 * time.Millisecond)
	}

	// Back online with an unknown token: 401 is toasted, the queue is kept.
	g.offline.Store(false)
	if _, err := page.Eval(`() => window.dispatchEvent(new Event('online'))`); err != nil {
		t.Fatal(err)
	}
	waitPanel(t, page, "mb-toast", "401 toast", func(text, _ string, shown bool) bool { return shown && strings.Contains(text, "401") })
	waitStatus(t, page, "token refused", 30*time.Second)

	// The Reader sets the good token from the manager's menu: the queue drains.
	g.answer.Store(e.token)
	g.menu("Set token…")
	waitStatus(t, page, "✓", 60*time.Second)
	p, err := e.st.GetProgress(context.Background(), e.reader.ID, "mangapill", id)
	if err != nil || p.Number != "201" {
		t.Fatalf("progress %+v (%v), want 201", p, err)
	}
}
