package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sitesim"
)

// TestProbeListing: `probe --listing SITE` reads page 1 of the Site's
// listing through its route (the two browser listings through a real
// Chromium) and prints its lines and field diff; a changed shape exits 1
// naming the fields it missed; Comix, without a listing, gets a trial
// read of its browse page.
func TestProbeListing(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)
	p := newProbeEnv(t, chrome.HTTPURL())
	for _, site := range []string{sitesim.Kagane, sitesim.Natomanga, sitesim.MangaPill} {
		p.sim.BulkUpload(site, 4, 1, time.Now().Add(-time.Hour))
		out, errOut, code := p.probe(t, "--json", "--listing", site)
		var rep listingReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
			t.Fatalf("%s: exit %d %v\n%s\n%s", site, code, err, out, errOut)
		}
		if rep.Outcome != "ok" || rep.Lines < 1 || !strings.EqualFold(rep.Entries[0].SeriesID, p.sim.SeriesID(site, 4)) ||
			len(rep.Fetches) != 1 || len(rep.Fetches[0].Found) == 0 || len(rep.Fetches[0].Missed) != 0 {
			t.Errorf("%s: %+v", site, rep)
		}
	}
	p.sim.SetListing(sitesim.Kagane, sitesim.Behavior{Mode: sitesim.LayoutChanged})
	out, _, code := p.probe(t, "--json", "--listing", sitesim.Kagane)
	var rep listingReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 || rep.Outcome != "no_chapter" ||
		len(rep.Fetches) != 1 || !slices.Contains(rep.Fetches[0].Missed, "content[].series_id") {
		t.Fatalf("changed: exit %d %v %+v", code, err, rep)
	}
	out, _, _ = p.probe(t, "--listing", sitesim.Kagane)
	if !strings.Contains(out, "outcome    no_chapter\n") || !strings.Contains(out, "missed 3: content[], content[].series_id") {
		t.Errorf("text report:\n%s", out)
	}
	// Comix has no listing: the probe reads the page that would decide
	// one and says what it found there.
	out, _, code = p.probe(t, "--json", "--listing", sitesim.Comix)
	rep = listingReport{}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 || !rep.Trial || rep.Outcome != "no_chapter" ||
		!strings.Contains(rep.Error, "holds no items") || len(rep.Fetches) != 1 || !strings.Contains(rep.Fetches[0].URL, "/browse?order") {
		t.Errorf("comix: exit %d %v %+v", code, err, rep)
	}
	if _, errOut, code := p.probe(t, "--listing", "https://example.com/"); code != 2 || !strings.Contains(errOut, "takes a Site's name") {
		t.Errorf("a URL: exit %d %s", code, errOut)
	}
}
