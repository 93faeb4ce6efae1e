package browser_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/browser"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites"
)

// TestDataReadRedirectedOffSiteIsUnfetchable: the data URL a read fetches
// from inside the page is answered by the Site, which may redirect it to
// another host that allows the page to read it (CORS). The answer must
// carry where it landed, so the read is judged what the plain route calls
// it: off the Site (unfetchable), its body never parsed as the Site's.
func TestDataReadRedirectedOffSiteIsUnfetchable(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)
	h := newHostileSite(t, chrome.HTTPURL()+"/json/version")
	// No bound is under test: a minute, room for a loaded machine.
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL(), ChallengeWait: time.Minute, ReadTimeout: time.Minute})
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"planted": true}`)
	}))
	t.Cleanup(other.Close)

	res, err := h.fetch(t, b, "/timers/7", h.URL+"/redirect/7?to="+url.QueryEscape(other.URL+"/api/7"))
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if !strings.Contains(string(res.Body), "planted") {
		t.Fatalf("the redirect was not followed (body %q): the attack did not run", res.Body)
	}
	out, err := sites.ClassifyResponse(h.site(), res)
	if out != sites.Unfetchable || !errors.Is(err, sites.ErrOffSite) {
		t.Errorf("data read landed on %v: classified %s (%v), want unfetchable, off the Site", res.FinalURL, out, err)
	}
}
