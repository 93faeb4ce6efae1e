package browser_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/browser"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites"
)

// worldSite serves pages whose scripts attack the read: they redefine what
// a read in the page's own world would call.
func worldSite(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, script string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Series 7</title><script>`+script+`</script></head>
<body><h1>Series 7</h1><a class="latest" href="/series/7/chapter-12">Chapter 12</a></body></html>`)
	}
	// outerHTML answers 3 MiB of planted markup; XMLSerializer, fetch and
	// Uint8Array's base64 lie too.
	mux.HandleFunc("/outer/", func(w http.ResponseWriter, r *http.Request) {
		page(w, `
const planted = '<html><body>PLANTED ' + 'x'.repeat(3 << 20) + '</body></html>';
Object.defineProperty(Element.prototype, 'outerHTML', { get() { return planted; } });
XMLSerializer.prototype.serializeToString = () => 'PLANTED';
window.fetch = async () => new Response('{"planted": true}', { headers: { 'Content-Type': 'application/json' } });
Uint8Array.prototype.toBase64 = function () { return btoa('{"planted": true}'); };`)
	})
	// The document itself grows to 1.5 MiB after load.
	mux.HandleFunc("/grow/", func(w http.ResponseWriter, r *http.Request) {
		page(w, `document.addEventListener('DOMContentLoaded', () => { document.body.append('y'.repeat(3 << 19)); });`)
	})
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"chapters": [12]}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// A page that redefines Element.prototype.outerHTML (and XMLSerializer,
// fetch, Uint8Array.prototype.toBase64) changes nothing the browser route
// reads: the page's real HTML and the data's real body come back, since
// the reads run in an isolated world. Under a 1 MiB limit the planted
// 3 MiB would have been refused as too large.
func TestPageScriptsCannotChangeWhatTheReadReturns(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)
	srv := worldSite(t)
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL(), MaxBody: 1 << 20, ChallengeWait: 25 * time.Second, ReadTimeout: 30 * time.Second})

	res := mustFetch(t, b, srv.URL+"/outer/7", "")
	if body := string(res.Body); strings.Contains(body, "PLANTED xxxx") || len(body) > 64<<10 || !strings.Contains(body, `<a class="latest" href="/series/7/chapter-12">`) ||
		!strings.HasPrefix(body, "<!DOCTYPE html>") {
		t.Errorf("the read returned the page script's markup, not the page's (%d bytes): %.200q", len(body), body)
	}
	res = mustFetch(t, b, srv.URL+"/outer/7", srv.URL+"/api/7")
	if body := string(res.Body); body != `{"chapters": [12]}` {
		t.Errorf("the data read returned %.200q, not the Site's answer", body)
	}
	t.Logf("hostile inputs tried: %d", 4) // outerHTML, XMLSerializer, fetch, toBase64
}

// A document over the limit is refused in the page: too large, and the
// answer that crosses the DevTools connection stays small. The document
// crossing whole would also come back too large (a message over the frame
// bound is the page's ErrTooLarge), so the test reads the largest message
// the connection has seen: the same connection, never near the
// document's size. The connection still reads the next page.
func TestOversizedDocumentIsRefusedBeforeItLeavesThePage(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)
	srv := worldSite(t)
	// A 16 KiB limit bounds frames to 1.1 MiB: the 1.5 MiB document could
	// not cross it.
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL(), MaxBody: 16 << 10, ChallengeWait: 25 * time.Second, ReadTimeout: 30 * time.Second})

	_, err := fetch(t, b, srv.URL+"/grow/7", "")
	if !errors.Is(err, sites.ErrTooLarge) {
		t.Fatalf("a 1.5 MiB document under a 16 KiB limit: %v, want too large", err)
	}
	if n, ok := browser.LargestFrame(b); !ok || n > 256<<10 {
		t.Errorf("largest DevTools message %d bytes (connection kept: %v): the document crossed DevTools, want it refused in the page", n, ok)
	} else {
		t.Logf("largest DevTools message: %d bytes", n)
	}
	res := mustFetch(t, b, srv.URL+"/api/7", "")
	if !strings.Contains(string(res.Body), "chapters") {
		t.Errorf("the next read returned %.200q", res.Body)
	}
}
