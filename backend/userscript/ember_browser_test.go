package userscript_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/browser"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// The ember on the browser Sites (Kagane, Comix, natomanga): each Site's
// Lane reads its Series through the browser route, the simulator behind
// the Chromium sidecar; the served userscript then shows the ember on the
// Series page (at the Site's real host) of the bookmarked Series read
// behind its Latest Chapter, and none on the one read up to it.
func TestUserscriptEmberOnTheBrowserSites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := lanestest.NewFakeClock(time.Now().UTC())
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 3, Now: clock.Now})
	reg := simtest.Registry(t, sim)
	e, handler := newEnv(t, reg)
	hs := httptest.NewServer(nil)
	t.Cleanup(hs.Close)
	hs.Config.Handler = handler(hs.URL)
	b, err := browser.New(browser.Config{WSURL: chromiumtest.Shared(t).WSURL(), ChallengeWait: 30 * time.Second,
		ReadTimeout: 20 * time.Second, PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	m, err := lanes.New(lanes.Config{Store: e.st, Sites: reg, Plain: sitestest.Plain(t, sites.PlainOptions{TotalTimeout: 10 * time.Second}),
		Browser: b, Clock: clock, Log: slog.New(slog.DiscardHandler), Enabled: true, ReadTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.WaitCovers)

	type want struct{ site, behind, upTo string }
	var cases []want
	for _, site := range []string{sitesim.Kagane, sitesim.Comix, sitesim.Natomanga} {
		ids := sim.SeriesIDs(site, 2)
		for _, id := range ids {
			if _, err := e.st.AddBookmark(ctx, e.reader.ID, site, canonicalID(site, id), sim.SeriesURL(site, id)); err != nil {
				t.Fatalf("%s/%s: %v", site, id, err)
			}
		}
		// The browser Lanes wake for Series created a while ago.
		storetest.SetSeries(ctx, t, e.st, storetest.SeriesSet{Site: site, CreatedAt: storetest.At(clock.Now().Add(-time.Hour))})
		clock.SetActors(1)
		pctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
		pass, _ := m.RunPass(pctx, site)
		cancel()
		clock.SetActors(0)
		for _, id := range ids {
			s, err := e.st.GetSeries(ctx, site, canonicalID(site, id))
			if err != nil || s.LatestNumber == "" {
				t.Fatalf("%s/%s: no Latest Chapter after the browser Lane's pass (%+v, %v; pass %+v)", site, id, s, err, pass)
			}
		}
		// The first read behind its Latest Chapter, the second up to it.
		behind, upTo := canonicalID(site, ids[0]), canonicalID(site, ids[1])
		read := func(id, number string) {
			if _, err := e.st.ApplyReads(ctx, []store.Read{{ReaderID: e.reader.ID, Site: site, SeriesID: id, Number: number,
				URL: sim.ReaderURL(site, id, number), ReadAt: time.Now()}}); err != nil {
				t.Fatal(err)
			}
		}
		read(behind, "1")
		read(upTo, sim.Latest(site, ids[1]))
		cases = append(cases, want{site, ids[0], ids[1]})
	}

	origins := map[string]string{}
	for site, host := range realHosts {
		origins[host] = sim.Origin(site)
	}
	page := sharedPage(t)
	routePages(t, page, nil, origins)
	installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	onRealHost := func(site, id string) string {
		return strings.Replace(sim.SeriesURL(site, id), sim.Origin(site), "https://"+realHosts[site], 1)
	}
	for _, c := range cases {
		nav(t, page, onRealHost(c.site, c.behind))
		waitPanel(t, page, "mb-ember", c.site+": the ember on a Series read behind its Latest Chapter", isShown)
		waitPanel(t, page, "mb-bookmark", c.site+": no + bookmark on a bookmarked Series", isHidden)
		nav(t, page, onRealHost(c.site, c.upTo))
		waitStatus(t, page, "✓", 30*time.Second)
		if _, _, shown, _ := panelState(page, "mb-ember"); shown {
			t.Errorf("%s: the ember on a Series read up to its Latest Chapter (%s)", c.site, c.upTo)
		}
	}
}

// canonicalID is the backend's form of a simulator Series id.
func canonicalID(site, id string) string {
	if site == sitesim.Comix || site == sitesim.Natomanga || site == sitesim.Kagane {
		return strings.ToLower(id)
	}
	return id
}
