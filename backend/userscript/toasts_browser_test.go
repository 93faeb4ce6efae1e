package userscript_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/ysmood/gson"

	"mangabookmark/backend/api"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store/dbtest"
)

// evalUntil polls a JS predicate until it returns true or 30 s pass.
func evalUntil(t *testing.T, page *rod.Page, js string, what string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if res, err := page.Eval(js); err == nil && res.Value.Bool() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("never true: %s", what)
}

// The queue is bounded: past QUEUE_MAX the oldest read is dropped with a
// toast; a refused token (401) is toasted and keeps the queue.
func TestUserscriptFullQueueAnd401Toasts(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped with -short")
	}
	ws, _ := chromiumtest.Start(t)
	sim := sitesim.New(sitesim.Config{SeriesPerSite: 2})
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Close)
	reg, err := registry.New(sim.Origins())
	if err != nil {
		t.Fatal(err)
	}
	st := dbtest.New(t)
	svc, err := auth.New(auth.Config{Store: st, TokenKey: []byte(testKey)})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(nil)
	hs.Config.Handler, err = api.New(api.Config{Store: st, Sites: reg, Auth: svc, BaseURL: hs.URL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hs.Close)
	good, _, err := svc.MintTokenRow(context.Background(), "200000000000000002", "Ann", "t")
	if err != nil {
		t.Fatal(err)
	}

	page := newPage(t, ws, 120*time.Second)
	// Every request fails as a dropped connection until `online` is set.
	var online atomic.Bool
	fetch := gmFetch(&http.Client{Timeout: 10 * time.Second})
	if _, err := page.Expose("__mbFetch", func(req gson.JSON) (any, error) {
		if !online.Load() {
			return nil, fmt.Errorf("network error")
		}
		return fetch(req)
	}); err != nil {
		t.Fatal(err)
	}
	origin := sim.Origin("mangapill")
	host := strings.TrimPrefix(origin, "http://")
	installUserscript(t, page, map[string]string{host: "mangapill"},
		map[string]string{"mb_base_url": hs.URL, "mb_token": "mb_" + strings.Repeat("A", 43)}, hs.URL)
	id := sim.SeriesIDs("mangapill", 1)[0]
	if err := page.Navigate(fmt.Sprintf("%s/chapters/%s-10001000/s-chapter-1", origin, id)); err != nil {
		t.Fatal(err)
	}
	evalUntil(t, page, `() => (document.getElementById('mb-status')||{}).textContent === '⟳ 1 pending'`, "first read queued")

	// 200 more chapters through SPA navigation: one past QUEUE_MAX.
	if _, err := page.Eval(`async (origin, id) => {
		for (let n = 2; n <= 201; n++) {
			history.pushState({}, '', origin + '/chapters/' + id + '-1' + String(n * 1000).padStart(7, '0') + '/s-chapter-' + n);
			await new Promise((r) => setTimeout(r, 15));
		}
	}`, origin, id); err != nil {
		t.Fatal(err)
	}
	evalUntil(t, page, `() => (document.getElementById('mb-status')||{}).textContent === '⟳ 200 pending'`, "queue at QUEUE_MAX")
	evalUntil(t, page, `() => { const e = document.getElementById('mb-toast'); return !!e && e.style.display !== 'none' && e.textContent.includes('queue is full'); }`, "full-queue toast")
	first, err := page.Eval(`() => JSON.parse(JSON.parse(localStorage.getItem('gm:mb_queue')))[0].number`)
	if err != nil || first.Value.Str() != "2" {
		t.Fatalf("oldest queued read = %v (%v), want chapter 2 (chapter 1 dropped)", first, err)
	}

	// Back online with an unknown token: 401 is toasted, the queue is kept.
	online.Store(true)
	if _, err := page.Eval(`() => { document.getElementById('mb-toast').style.display = 'none'; window.dispatchEvent(new Event('online')); }`); err != nil {
		t.Fatal(err)
	}
	evalUntil(t, page, `() => { const e = document.getElementById('mb-toast'); return e.style.display !== 'none' && e.textContent.includes('401'); }`, "401 toast")
	evalUntil(t, page, `() => document.getElementById('mb-status').textContent === 'token refused'`, "panel says token refused")

	// The settings field takes the good token; the queue drains.
	if _, err := page.Eval(`(tok) => {
		document.getElementById('mb-settings-toggle').click();
		document.getElementById('mb-token').value = tok;
		document.getElementById('mb-save').click();
	}`, good); err != nil {
		t.Fatal(err)
	}
	evalUntil(t, page, `() => document.getElementById('mb-status').textContent === '✓'`, "queue drained after the token was fixed")
	r, err := st.GetReaderByDiscordID(context.Background(), "200000000000000002")
	if err != nil {
		t.Fatal(err)
	}
	p, err := st.GetProgress(context.Background(), r.ID, "mangapill", id)
	if err != nil || p.Number != "201" {
		t.Fatalf("progress %+v (%v), want 201", p, err)
	}
}
