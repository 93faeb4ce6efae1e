package web_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
)

// Issue 33 A1: the page's "Send a test notice" had no limit at all (40
// concurrent posts held 40 connections to the Reader's host). A Reader's
// tests are paced on both faces together: after a test through the API,
// the page's test within the minute is 429 with the reason and
// Retry-After, and reaches no outlet; a minute later it goes.
func TestTestNoticeIsPacedAcrossFaces(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	t.Cleanup(hook.Close)
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	csrf := f.csrf(t, c, "/notices")
	if a := f.postForm(t, c, "/notices", url.Values{"csrf": {csrf}, "digest_min": {"0"}, "webhook_url": {hook.URL + "/in"}}); a.code != http.StatusOK {
		t.Fatalf("set the webhook: %d", a.code)
	}
	req, _ := http.NewRequest("POST", f.srv.URL+"/api/me/notify/test", nil)
	req.Header.Set("Authorization", "Bearer "+f.readerToken)
	if a := f.do(t, http.DefaultClient, req); a.code != http.StatusOK {
		t.Fatalf("the API's test: %d %s", a.code, a.body)
	}
	f.clock.Add(readernotice.TestEvery - 10*time.Second)
	a := f.postForm(t, c, "/notices/test", url.Values{"csrf": {csrf}})
	if a.code != http.StatusTooManyRequests || a.header.Get("Retry-After") != "10" || !strings.Contains(a.body, "less than a minute ago") {
		t.Fatalf("the page's test 50 s later: %d Retry-After %q\n%.2000s", a.code, a.header.Get("Retry-After"), a.body)
	}
	if n := hits.Load(); n != 1 {
		t.Fatalf("the webhook got %d tests, want 1", n)
	}
	f.clock.Add(10 * time.Second)
	if a := f.postForm(t, c, "/notices/test", url.Values{"csrf": {csrf}}); a.code != http.StatusOK {
		t.Fatalf("a minute after: %d", a.code)
	}
	if n := hits.Load(); n != 2 {
		t.Fatalf("the webhook got %d tests, want 2", n)
	}
}
