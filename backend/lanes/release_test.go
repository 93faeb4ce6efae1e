package lanes_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/releasefeed"
	"mangabookmark/backend/releasefeed/releasefeedtest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

const releaseMU = 60143657332 // rmnzb04 in MangaUpdates' URL form

// releaseEnv is a Lane env with a release feed on its clock and registry,
// reading a stand-in release list.
func releaseEnv(t *testing.T, specs ...siteSpec) (*env, *releasefeed.Feed, *releasefeedtest.Server) {
	t.Helper()
	e := newEnv(t, nil, specs...)
	var list []*sites.Site
	for _, sp := range specs {
		list = append(list, e.sites[sp.name])
	}
	reg, err := sites.NewRegistry(list)
	if err != nil {
		t.Fatal(err)
	}
	mu := releasefeedtest.Start(t)
	c, err := releasefeed.NewClient(mu.URL, &http.Client{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	f, err := releasefeed.New(releasefeed.Config{Store: e.st, Sites: reg, Client: c, Clock: e.clock})
	if err != nil {
		t.Fatal(err)
	}
	return e, f, mu
}

func (e *env) muID(t *testing.T, site, id string, mu int64) {
	t.Helper()
	if _, err := e.st.AddSeriesIDs(context.Background(), []store.SeriesIDs{{Site: site, SeriesID: id,
		IDs: []store.ExternalID{{Kind: "mu", Value: fmt.Sprint(mu), Source: store.IDFromSite}}}}); err != nil {
		t.Fatal(err)
	}
}

// A release of a followed Series makes its Lane read it within one Gap:
// a browser Lane whose wake gate would hold a lone due Series for up to
// WakeGateWait reads it at its next pass, as after its own listing's hint;
// and a Lane asleep in its pace is woken by the hint itself (the store's
// wake on a check time moving earlier), with no Wake call.
func TestReleaseHintIsReadWithinOneGap(t *testing.T) {
	t.Parallel()
	e, feed, mu := releaseEnv(t, siteSpec{name: "b", browser: true, gap: 10 * time.Second})
	ctx := context.Background()
	e.seedChecked(t, "b", 3, e.clock.Now().Add(-10*time.Minute))
	e.muID(t, "b", "2", releaseMU)
	if res, _ := e.runPass(t, "b"); res.Due != 0 {
		t.Fatalf("nothing should be due: %+v", res)
	}
	mu.SetRows(releasefeedtest.Row{ID: 1, SeriesID: releaseMU, Chapter: "2"}, releasefeedtest.Row{ID: 2, SeriesID: 99, Chapter: "5"})
	r, err := feed.RunOnce(ctx)
	if err != nil || r.Hinted["b"] != 1 {
		t.Fatalf("feed read %+v %v", r, err)
	}
	hinted := e.clock.Now()
	res, _ := e.runPass(t, "b")
	if res.Skip != "" || res.Checked != 1 {
		t.Fatalf("the hinted Series waited behind the wake gate: %+v", res)
	}
	reads := e.ad["b"].readLog()
	if len(reads) != 1 || reads[0].id != "2" || reads[0].at.Sub(hinted) > 10*time.Second {
		t.Fatalf("reads %+v, want Series 2 within one gap of %v", reads, hinted)
	}
	// The gate then holds the routine trickle again: the hint opened it
	// once.
	e.clock.Advance(51 * time.Minute)
	if res, _ := e.runPass(t, "b"); res.Skip != lanes.SkipAsleep {
		t.Fatalf("a routine trickle after the hint should sleep: %+v", res)
	}

	// The running Lane: asleep in its pace, the next release wakes it.
	e2, feed2, mu2 := releaseEnv(t, siteSpec{name: "s", gap: 10 * time.Second})
	e2.seedChecked(t, "s", 2, e2.clock.Now().Add(-10*time.Minute))
	e2.muID(t, "s", "1", releaseMU)
	e2.m.Start(ctx)
	<-e2.m.Listening()
	e2.clock.WaitSleepers(ctx, 1)
	mu2.SetRows(releasefeedtest.Row{ID: 1, SeriesID: releaseMU, Chapter: "2"})
	at := e2.clock.Now()
	if r, err := feed2.RunOnce(ctx); err != nil || r.Hinted["s"] != 1 {
		t.Fatalf("feed read %+v %v", r, err)
	}
	waitFor(t, 30*time.Second, "the hinted Series' read", func() bool { return len(e2.ad["s"].readLog()) == 1 })
	if r := e2.ad["s"].readLog()[0]; r.id != "1" || r.at.Sub(at) > 10*time.Second {
		t.Fatalf("read %+v, want Series 1 within one gap of %v", r, at)
	}
}

// With the feed off (never started, as RELEASE_FEED=off leaves it) a
// lone due browser Series waits for the wake gate, as before.
func TestWithoutTheFeedTheGateHolds(t *testing.T) {
	t.Parallel()
	e, _, _ := releaseEnv(t, siteSpec{name: "b", browser: true, gap: 10 * time.Second})
	e.seedChecked(t, "b", 3, e.clock.Now().Add(-10*time.Minute))
	if _, err := e.st.HintSeries(context.Background(), "b", []store.Hint{{SeriesID: "2"}}, e.clock.Now().Add(-sites.DefaultRest)); err != nil {
		t.Fatal(err)
	}
	if res, _ := e.runPass(t, "b"); res.Skip != lanes.SkipAsleep || res.Due != 1 {
		t.Fatalf("pass %+v, want the gate to hold the lone due Series", res)
	}
}
