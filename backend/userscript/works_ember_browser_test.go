package userscript_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// One story on two Sites (a Work of a MangaPill and a WeebCentral Series,
// linked by a shared AniList id), both read one chapter behind the Latest:
// the ember shows on each member's page. A read of the Latest on the
// MangaPill member, made by the served userscript on its reader page,
// ends it on the WeebCentral member's page too, whose own Progress never
// moved (docs/adr/0021-works-link-by-ids.md: a read on any member ends
// "new" on every member).
func TestUserscriptReadOnOneMemberClearsTheOthersEmber(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 3})
	e, hs := newRealSitesEnv(t)
	a, b := sim.SeriesID(sitesim.MangaPill, 0), sim.SeriesID(sitesim.WeebCentral, 0)
	latest := sim.Latest(sitesim.MangaPill, a)
	n, err := strconv.ParseFloat(latest, 64)
	if err != nil {
		t.Fatalf("latest %q: %v", latest, err)
	}
	behind := strconv.FormatFloat(n-1, 'f', -1, 64)
	for _, m := range []struct{ site, id string }{{sitesim.MangaPill, a}, {sitesim.WeebCentral, b}} {
		if _, err := e.st.AddBookmark(ctx, e.reader.ID, m.site, m.id, sim.SeriesURL(m.site, m.id)); err != nil {
			t.Fatalf("%s/%s: %v", m.site, m.id, err)
		}
		// Both at the MangaPill member's Latest, read one chapter behind it.
		storetest.SetSeries(ctx, t, e.st, storetest.SeriesSet{Site: m.site, IDs: []string{m.id},
			LatestNumber: latest, LatestURL: sim.ReaderURL(m.site, m.id, latest), SeenAt: storetest.At(time.Now())})
		storetest.Progress(ctx, t, e.st, storetest.ProgressOpts{ReaderID: e.reader.ID, Site: m.site, SeriesID: m.id, Number: behind})
	}
	al := []store.ExternalID{{Kind: "al", Value: "30002", Source: store.IDFromSite}}
	if _, err := e.st.AddSeriesIDs(ctx, []store.SeriesIDs{{Site: sitesim.MangaPill, SeriesID: a, IDs: al}, {Site: sitesim.WeebCentral, SeriesID: b, IDs: al}}); err != nil {
		t.Fatal(err)
	}
	if wa, err := e.st.WorkOf(ctx, sitesim.MangaPill, a); err != nil || wa == 0 {
		t.Fatalf("the two Series are no Work: %v", err)
	}

	origins := map[string]string{}
	for _, site := range []string{sitesim.MangaPill, sitesim.WeebCentral} {
		origins[realHosts[site]] = sim.Origin(site)
	}
	page := sharedPage(t)
	routePages(t, page, nil, origins)
	g := installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	onRealHost := func(site, u string) string {
		return strings.Replace(u, sim.Origin(site), "https://"+realHosts[site], 1)
	}
	other := onRealHost(sitesim.WeebCentral, sim.SeriesURL(sitesim.WeebCentral, b))
	nav(t, page, other)
	waitPanel(t, page, "mb-ember", "the ember on the WeebCentral member, read behind the Work's Latest", isShown)

	// The Reader reads the Latest on the MangaPill member.
	keepReading(t, page)
	nav(t, page, onRealHost(sitesim.MangaPill, sim.ReaderURL(sitesim.MangaPill, a, latest)))
	waitProgress(t, e.st, e.reader.ID, sitesim.MangaPill, a, latest, 30*time.Second)
	waitQueueEmpty(t, g, 30*time.Second)
	// The script refreshes its bookmarks after a sent read: wait until
	// the cache holds the server's answer for the other member.
	deadline := time.Now().Add(30 * time.Second)
	for !cachedNotNew(g.value("mb_bookmarks"), b) {
		if time.Now().After(deadline) {
			t.Fatalf("the cached bookmarks never said the WeebCentral member is not new: %.400s", g.value("mb_bookmarks"))
		}
		time.Sleep(100 * time.Millisecond)
	}

	nav(t, page, other)
	waitStatus(t, page, "✓", 30*time.Second)
	if _, _, shown, _ := panelState(page, "mb-ember"); shown {
		t.Fatal("the ember still shows on the WeebCentral member after a read of the Work's Latest on MangaPill")
	}
	if p, _ := e.st.GetProgress(ctx, e.reader.ID, sitesim.WeebCentral, b); p.Number == latest {
		t.Fatalf("the WeebCentral member's own Progress moved (%s): the test would not show the Work's rule", p.Number)
	}
}

// cachedNotNew says whether the script's bookmarks cache holds the Series
// id as a member of a Work that is not new.
func cachedNotNew(cache, id string) bool {
	var c struct {
		List []struct {
			SeriesID string `json:"series_id"`
			New      bool   `json:"new"`
			WorkID   *int64 `json:"work_id"`
		} `json:"list"`
	}
	if json.Unmarshal([]byte(cache), &c) != nil {
		return false
	}
	for _, b := range c.List {
		if b.SeriesID == id {
			return b.WorkID != nil && !b.New
		}
	}
	return false
}
