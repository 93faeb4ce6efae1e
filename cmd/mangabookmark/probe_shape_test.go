package main

import (
	"slices"
	"strings"
	"testing"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sitesim"
)

// TestProbePrintsTheShapeDiff: the probe prints, per fetch, which of the
// fields the adapter's fixtures have it found and which it expected but
// missed, so one probe of a changed Site says what moved. On a steady
// Series nothing is missed; on a changed layout the moved field is named,
// in the JSON and the text report, through the plain route (MangaPill)
// and the browser route (Comix, whose Latest Chapter lives in the title
// page's initial data).
func TestProbePrintsTheShapeDiff(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)
	p := newProbeEnv(t, chrome.HTTPURL())

	steady := p.sim.SeriesID(sitesim.MangaPill, 1)
	rep, code := p.probeJSON(t, p.sim.SeriesURL(sitesim.MangaPill, steady))
	if code != 0 || len(rep.Fetches) != 1 || !slices.Contains(rep.Fetches[0].Found, "#chapters > div > a") || len(rep.Fetches[0].Missed) != 0 {
		t.Fatalf("steady: exit %d fetches %+v", code, rep.Fetches)
	}

	changed := p.sim.SeriesID(sitesim.MangaPill, 2)
	p.sim.SetSeries(sitesim.MangaPill, changed, sitesim.Behavior{Mode: sitesim.LayoutChanged})
	rep, code = p.probeJSON(t, p.sim.SeriesURL(sitesim.MangaPill, changed))
	if code != 1 || rep.Outcome != "no_chapter" || len(rep.Fetches) != 1 ||
		!slices.Contains(rep.Fetches[0].Missed, "#chapters > div > a") || !slices.Contains(rep.Fetches[0].Found, "h1") {
		t.Fatalf("changed: exit %d outcome %s fetches %+v", code, rep.Outcome, rep.Fetches)
	}
	out, _, _ := p.probe(t, p.sim.SeriesURL(sitesim.MangaPill, changed))
	if !strings.Contains(out, "fields 1   found 2: div.container img[data-src], h1; missed 1: #chapters > div > a\n") {
		t.Errorf("text report lacks the shape diff:\n%s", out)
	}

	cx := p.sim.SeriesID(sitesim.Comix, 3)
	p.sim.SetSeries(sitesim.Comix, cx, sitesim.Behavior{Mode: sitesim.LayoutChanged})
	rep, code = p.probeJSON(t, p.sim.SeriesURL(sitesim.Comix, cx))
	if code != 1 || rep.Outcome != "no_chapter" || len(rep.Fetches) != 1 ||
		!slices.Equal(rep.Fetches[0].Missed, []string{"detail.latestChapter"}) || !slices.Contains(rep.Fetches[0].Found, "detail.latestChapterUrl") {
		t.Fatalf("comix changed: exit %d outcome %s error %q fetches %+v", code, rep.Outcome, rep.Error, rep.Fetches)
	}
}
