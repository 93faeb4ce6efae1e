package userscript_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/store"
)

func TestMain(m *testing.M) {
	code := m.Run()
	chromiumtest.StopShared()
	os.Exit(code)
}

// newPage connects to the Chromium at ws and opens a blank tab; the tab
// is closed and the connection dropped when the test ends.
func newPage(t *testing.T, ws string) *rod.Page {
	t.Helper()
	return openTab(t, ws, true)
}

// openTab opens a blank tab, in its own window when newWindow is set (else
// in the browser's first window, behind the tabs opened after it).
func openTab(t *testing.T, ws string, newWindow bool) *rod.Page {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b := rod.New().ControlURL(ws).Context(ctx)
	if err := b.Connect(); err != nil {
		cancel()
		t.Fatal(err)
	}
	// Its own window: only a window's front tab is visible, and a read
	// counts only while its page is.
	page, err := b.Page(proto.TargetCreateTarget{URL: "about:blank", NewWindow: newWindow})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	// Close the tab, then drop the connection; the browser may be shared.
	t.Cleanup(func() {
		_ = page.Close()
		cancel()
	})
	return page
}

// sharedPage is newPage on the Chromium the package's tests share.
func sharedPage(t *testing.T) *rod.Page {
	t.Helper()
	return newPage(t, chromiumtest.Shared(t).WSURL())
}

// nav loads u in the page, failing the test after 60 s.
func nav(t *testing.T, page *rod.Page, u string) {
	t.Helper()
	if err := page.Timeout(60 * time.Second).Navigate(u); err != nil {
		t.Fatalf("navigate %s: %v", u, err)
	}
}

// routePages answers the page's requests the way SITE_ORIGINS maps a
// Site's host onto another origin: a URL in fixtures gets that HTML; a
// request to a host in origins (bare host, "mangapill.com") is sent to
// that origin with its path and query kept; anything else fails as an
// unreachable address. The page keeps the Site's real URL.
func routePages(t *testing.T, page *rod.Page, fixtures map[string]string, origins map[string]string) {
	t.Helper()
	client := &http.Client{Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	router := page.HijackRequests()
	if err := router.Add("*", "", func(h *rod.Hijack) {
		u := h.Request.URL()
		if body, ok := fixtures[u.String()]; ok {
			h.Response.SetHeader("Content-Type", "text/html; charset=utf-8")
			h.Response.SetBody(body)
			return
		}
		host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
		if o, ok := origins[host]; ok {
			target, err := url.Parse(o)
			if err == nil {
				req := h.Request.Req()
				req.URL.Scheme, req.URL.Host, req.Host = target.Scheme, target.Host, target.Host
				if h.LoadResponse(client, true) == nil {
					return
				}
			}
		}
		h.Response.Fail(proto.NetworkErrorReasonAddressUnreachable)
	}); err != nil {
		t.Fatal(err)
	}
	go router.Run()
	t.Cleanup(func() { _ = router.Stop() })
}

// evalUntil polls a JS predicate (in the page's own world) until it
// returns true or 40 s pass.
func evalUntil(t *testing.T, page *rod.Page, js string, what string) {
	t.Helper()
	deadline := time.Now().Add(40 * time.Second)
	for time.Now().Before(deadline) {
		if res, err := page.Timeout(5 * time.Second).Eval(js); err == nil && res.Value.Bool() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("never true: %s", what)
}

// panelStatus is the panel's status text and its tooltip.
func panelStatus(page *rod.Page) (text, tip string) {
	text, tip, _, _ = panelState(page, "mb-status")
	return text, tip
}

// waitStatus waits until the panel's status reads want.
func waitStatus(t *testing.T, page *rod.Page, want string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	got := ""
	for time.Now().Before(deadline) {
		if got, _ = panelStatus(page); got == want {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("panel status %q, want %q", got, want)
}

// waitQueueEmpty waits until the script's offline queue holds no read:
// every read it sent was answered.
func waitQueueEmpty(t *testing.T, g *gmHost, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for q := g.queue(); len(q) != 0; q = g.queue() {
		if time.Now().After(deadline) {
			t.Fatalf("%d reads still queued after %v: %v", len(q), within, q)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitProgress waits until the Reader's Progress on a Series is want.
func waitProgress(t *testing.T, st *store.Store, readerID int64, site, id, want string, within time.Duration) {
	t.Helper()
	if got := progressWithin(st, readerID, site, id, want, within); got != want {
		t.Fatalf("progress %s/%s = %q, want %q", site, id, got, want)
	}
}

// progressWithin polls the Reader's Progress on a Series until it is want
// or within passes, and returns the last number seen.
func progressWithin(st *store.Store, readerID int64, site, id, want string, within time.Duration) string {
	deadline := time.Now().Add(within)
	got := ""
	for time.Now().Before(deadline) {
		if p, err := st.GetProgress(context.Background(), readerID, site, id); err == nil {
			if got = p.Number; got == want {
				break
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return got
}
