package browser_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"mangabookmark/backend/browser"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/natomanga"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
)

// A Site read from its bare host, which redirects to www (natomanga does),
// still reads: the route fetches the chapter API from the www document it
// landed on, not cross-origin from the bare host the adapter built.
func TestBrowserDataFollowsTheLandedOrigin(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 3})
	www, _ := url.Parse(sim.Origin(sitesim.Natomanga))
	bare, _ := url.Parse(sim.BareOrigin(sitesim.Natomanga))
	site := &sites.Site{Name: "natomanga", Browser: true, Adapter: natomanga.Adapter{},
		Hosts: []string{bare.Host, www.Host}, Origin: bare.String()}
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL()})
	id := sim.SeriesID(sitesim.Natomanga, 1)
	res := readSeries(site, b, id)
	if res.Outcome != sites.OK || res.Facts.Latest == nil || res.Facts.Latest.Number != sim.Latest(sitesim.Natomanga, id) {
		t.Fatalf("outcome %s (%v), facts %+v", res.Outcome, res.Err, res.Facts)
	}
}

// Comix's own WAF ("Security check" under /@waf/) is a challenge that
// never clears: refused, never an empty page read as the title page.
func TestBrowserComixWAFIsRefused(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 3})
	reg := simtest.Registry(t, sim)
	s := reg.Get("comix")
	id := sim.SeriesID(sitesim.Comix, 1)
	sim.SetSeries(sitesim.Comix, id, sitesim.Behavior{WAF: true})
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL(), ChallengeWait: 2 * time.Second})
	if res := readSeries(s, b, id); res.Outcome != sites.Refused {
		t.Fatalf("outcome %s (%v), want refused", res.Outcome, res.Err)
	}
}

// The probe knows the WAF page by its own marks, wherever it is served:
// titled exactly "Security check" and asking to verify you're human (the
// apostrophe as Comix writes it, or typographic) is a challenge that never
// clears; a Series page that merely says "security check" is read.
func TestBrowserProbeKnowsTheWAFPage(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	pages := map[string]string{
		"/waf-ascii":  `<!DOCTYPE html><html><head><title>Security check</title></head><body><h1>Verify you&#39;re human</h1><p>Drag to rotate the circle</p></body></html>`,
		"/waf-curly":  `<!DOCTYPE html><html><head><title> Security Check </title></head><body><h1>Verify you’re human</h1></body></html>`,
		"/synopsis":   `<!DOCTYPE html><html><head><title>The Tower | Comix</title></head><body><p>He must pass a security check before entering. Verify you're human, says the guard.</p></body></html>`,
		"/title-only": `<!DOCTYPE html><html><head><title>Security check</title></head><body><p>A Series about airports.</p></body></html>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL(), ChallengeWait: 3 * time.Second})
	for path, refused := range map[string]bool{"/waf-ascii": true, "/waf-curly": true, "/synopsis": false, "/title-only": false} {
		_, err := fetch(t, b, srv.URL+path, "")
		if got := errors.Is(err, sites.ErrChallenge); got != refused {
			t.Errorf("%s: challenge %v (%v), want %v", path, got, err, refused)
		}
		if !refused && err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
}
