package userscript_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
)

// The queue is bounded: past QUEUE_MAX the oldest read is dropped with a
// toast; a refused token (401) is toasted and keeps the queue; a token the
// Reader types and saves (real input and click) drains it.
func TestUserscriptFullQueueAnd401Toasts(t *testing.T) {
	sim, err := sitesim.New(sitesim.Config{SeriesPerSite: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Close)
	e, hs := newRealSitesEnv(t)

	page := sharedPage(t)
	routePages(t, page, nil, map[string]string{"mangapill.com": sim.Origin("mangapill")})
	g := installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": "mb_" + strings.Repeat("A", 43)}, e.js)
	g.offline.Store(true) // every request fails as a dropped connection
	id := sim.SeriesIDs("mangapill", 1)[0]
	origin := "https://mangapill.com"
	nav(t, page, fmt.Sprintf("%s/chapters/%s-10001000/s-chapter-1", origin, id))
	waitStatus(t, page, "⟳ 1 pending", 30*time.Second)

	// 200 more chapters through SPA navigation: one past QUEUE_MAX.
	if _, err := page.Eval(`async (origin, id) => {
		for (let n = 2; n <= 201; n++) {
			history.pushState({}, '', origin + '/chapters/' + id + '-1' + String(n * 1000).padStart(7, '0') + '/s-chapter-' + n);
			await new Promise((r) => setTimeout(r, 15));
		}
	}`, origin, id); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, page, "⟳ 200 pending", 60*time.Second)
	evalUntil(t, page, `() => { const e = document.getElementById('mb-toast'); return !!e && e.style.display !== 'none' && e.textContent.includes('queue is full'); }`, "full-queue toast")
	deadline := time.Now().Add(10 * time.Second)
	for {
		q := g.queue()
		if len(q) == 200 && q[0]["number"] == "2" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("queue %d reads, oldest %v; want 200 from chapter 2 (chapter 1 dropped)", len(q), q[0]["number"])
		}
		time.Sleep(100 * time.Millisecond)
	}

	// Back online with an unknown token: 401 is toasted, the queue is kept.
	g.offline.Store(false)
	if _, err := page.Eval(`() => { document.getElementById('mb-toast').style.display = 'none'; window.dispatchEvent(new Event('online')); }`); err != nil {
		t.Fatal(err)
	}
	evalUntil(t, page, `() => { const e = document.getElementById('mb-toast'); return e.style.display !== 'none' && e.textContent.includes('401'); }`, "401 toast")
	waitStatus(t, page, "token refused", 30*time.Second)

	// The Reader types the good token and clicks Save: the queue drains.
	page.MustElement("#mb-settings-toggle").MustClick()
	page.MustElement("#mb-token").MustInput(e.token)
	page.MustElement("#mb-save").MustClick()
	waitStatus(t, page, "✓", 60*time.Second)
	p, err := e.st.GetProgress(context.Background(), e.reader.ID, "mangapill", id)
	if err != nil || p.Number != "201" {
		t.Fatalf("progress %+v (%v), want 201", p, err)
	}
}
