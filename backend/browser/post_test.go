package browser_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"mangabookmark/backend/browser"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites"
)

// TestDataPostedInsidePage: a request with a method and body (Kagane's
// listing is a search POST) is sent from inside the solved page with that
// method, body and content type, behind the same challenge as a GET.
func TestDataPostedInsidePage(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie(clearanceCookie); err != nil || c.Value != "ok" {
			challenge(w, true)
			return
		}
		if r.URL.Path != "/cf/api/search" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, seriesHTML)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"method":%q,"type":%q,"body":%q,"query":%q}`, r.Method, r.Header.Get("Content-Type"), body, r.URL.RawQuery)
	}))
	t.Cleanup(srv.Close)

	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL()})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := b.Fetch(ctx, sites.Request{Page: srv.URL + "/cf/", Data: srv.URL + "/cf/api/search?page=0&size=100",
		Method: http.MethodPost, Body: []byte(`{"source_type":["Official"]}`), ContentType: "application/json"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"method":"POST","type":"application/json","body":"{\"source_type\":[\"Official\"]}","query":"page=0&size=100"}`
	if res.Status != http.StatusOK || string(res.Body) != want {
		t.Fatalf("in-page POST: status %d body %s; want 200 %s", res.Status, res.Body, want)
	}
}
