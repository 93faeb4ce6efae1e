package browser_test

import (
	"net/url"
	"testing"
	"time"

	"mangabookmark/backend/browser"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/natomanga"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/sitesim"
)

// A Site read from its bare host, which redirects to www (natomanga does),
// still reads: the route fetches the chapter API from the www document it
// landed on, not cross-origin from the bare host the adapter built.
func TestBrowserDataFollowsTheLandedOrigin(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	sim, err := sitesim.New(sitesim.Config{SeriesPerSite: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Close)
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
	sim, err := sitesim.New(sitesim.Config{SeriesPerSite: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Close)
	reg, err := registry.FromEnv(sim.OriginsValue())
	if err != nil {
		t.Fatal(err)
	}
	s := reg.Get("comix")
	id := sim.SeriesID(sitesim.Comix, 1)
	sim.SetSeries(sitesim.Comix, id, sitesim.Behavior{WAF: true})
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL(), ChallengeWait: 2 * time.Second})
	if res := readSeries(s, b, id); res.Outcome != sites.Refused {
		t.Fatalf("outcome %s (%v), want refused", res.Outcome, res.Err)
	}
}
