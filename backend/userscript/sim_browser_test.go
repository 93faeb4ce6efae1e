package userscript_test

import (
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
)

// realHosts is the host each Site's simulator is mapped onto.
var realHosts = map[string]string{
	sitesim.Kagane: "kagane.org", sitesim.Comix: "comix.to", sitesim.Natomanga: "natomanga.com",
	sitesim.MangaDex: "mangadex.org", sitesim.WeebCentral: "weebcentral.com", sitesim.MangaPill: "mangapill.com",
}

// The served userscript on the simulator's reader pages, mapped onto the
// Sites' real host names, records a read on every Site: the simulator's
// reader pages carry the Series link, the chapter label (another word than
// "Chapter" on some WeebCentral Series) and render late like the real
// single-page apps.
func TestServedUserscriptReadsEverySimulatedSite(t *testing.T) {
	t.Parallel()
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 20})
	e, hs := newRealSitesEnv(t)

	origins := map[string]string{}
	for site, host := range realHosts {
		origins[host] = sim.Origin(site)
	}
	page := sharedPage(t)
	routePages(t, page, nil, origins)
	installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	keepReading(t, page)
	for _, site := range sitesim.SiteNames {
		id := sim.SeriesID(site, 1) // WeebCentral labels this Series' chapters "Episode N"
		n := sim.Latest(site, id)
		u := strings.Replace(sim.ReaderURL(site, id, n), sim.Origin(site), "https://"+realHosts[site], 1)
		nav(t, page, u)
		want := id
		if site == sitesim.Comix || site == sitesim.Natomanga {
			want = strings.ToLower(id)
		}
		if got := progressWithin(e.st, e.reader.ID, site, want, n, 20*time.Second); got != n {
			text, tip := panelStatus(page)
			vis, _ := page.Eval(`() => document.visibilityState`)
			t.Errorf("%s (%s): progress %s/%s = %q, want %q (panel %q: %s; %v)", site, u, site, want, got, n, text, tip, vis.Value)
		}
	}
}
