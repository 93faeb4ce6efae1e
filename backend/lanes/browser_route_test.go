package lanes_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// Issue 5's acceptance, at the Lane level: the real browser route over
// Debian's Chromium, the real Poll Lanes on PostgreSQL, and the simulator
// over HTTP. Lane time is a fake clock; the browser's challenge wait is
// wall time, kept to a few seconds. The subtests share one Chromium and
// run in order; the challenge subtest comes first, on a fresh profile, so
// no earlier clearance cookie can let its reads past the interstitial.
func TestBrowserRouteThroughLanes(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)

	// Pages behind the script challenge are read ok through the browser:
	// the Latest Chapter is stored and no failure row is written. The plain
	// route is refused on the same pages.
	t.Run("challenge_passed", func(t *testing.T) {
		e := newRouteEnv(t, chrome.HTTPURL(), 15*time.Second, routeOpts{})
		for _, site := range browserSites {
			e.sim.SetSite(site, sitesim.Behavior{Mode: sitesim.JSChallenge})
			ids := e.seed(t, site, 3)
			res, _ := e.pass(t, site)
			if res.Skip != lanes.SkipNone || res.Checked != 3 || res.OK != 3 || res.Refused != 0 {
				t.Errorf("%s: pass %+v, want 3 ok reads", site, res)
			}
			for _, id := range ids {
				e.wantRead(t, site, id)
				if r := e.readPlain(site, id); r.Outcome != sites.Refused {
					t.Errorf("%s %s through the plain route: %s (%v), want refused", site, id, r.Outcome, r.Err)
				}
			}
			if f := e.failures(t, site); len(f) != 0 {
				t.Errorf("%s: failure rows %v", site, f)
			}
		}
	})

	// A challenge that never clears is refused at the browser's deadline;
	// two in one pass stop that Lane (and only it) for RefuseBackoff, leave
	// the rest unstamped and write no failure row. The Lane reads again once
	// the backoff has passed on the Lane clock.
	t.Run("challenge_stuck", func(t *testing.T) {
		e := newRouteEnv(t, chrome.HTTPURL(), 3*time.Second, routeOpts{})
		const site = "kagane"
		ids := e.seed(t, site, 4)
		e.sim.SetSeries(site, ids[0], sitesim.Behavior{Mode: sitesim.JSChallengeStuck})
		e.sim.SetSeries(site, ids[1], sitesim.Behavior{Mode: sitesim.JSChallengeStuck})
		other := e.seed(t, "comix", 2)

		res, pace := e.pass(t, site)
		stopped := e.clock.Now()
		if res.Skip != lanes.SkipNone || res.Checked != 2 || res.Refused != 2 || res.OK != 0 || pace != lanes.RefuseBackoff {
			t.Fatalf("pass %+v pace %v, want two refusals and the backoff", res, pace)
		}
		lane, err := e.st.GetLane(context.Background(), site)
		if err != nil {
			t.Fatal(err)
		}
		if want := stopped.Add(lanes.RefuseBackoff); lane.RefuseUntil == nil || !lane.RefuseUntil.Equal(want) {
			t.Fatalf("refuse_until %v, want %v", lane.RefuseUntil, want)
		}
		for i, id := range ids {
			checked := e.series(t, site, id).LatestCheckedAt != nil
			if checked != (i < 2) {
				t.Errorf("%s: stamped %v, want %v (only the two refused reads are stamped)", id, checked, i < 2)
			}
		}
		if f := e.failures(t, site); len(f) != 0 {
			t.Errorf("failure rows %v after refusals", f)
		}

		// Another browser Lane is not stopped by this Lane's refusals.
		if res, _ := e.pass(t, "comix"); res.Skip != lanes.SkipNone || res.OK != len(other) {
			t.Errorf("comix during kagane's backoff: %+v", res)
		}

		e.clock.Advance(lanes.RefuseBackoff - time.Minute)
		if res, _ := e.pass(t, site); res.Skip != lanes.SkipRefusing || res.Checked != 0 || res.Due != 2 {
			t.Errorf("pass inside the backoff: %+v, want skip refusing with 2 due", res)
		}
		e.clock.Advance(time.Minute + time.Second)
		res, _ = e.pass(t, site)
		if res.Skip != lanes.SkipNone || res.Checked != 2 || res.OK != 2 {
			t.Fatalf("pass after the backoff: %+v, want the two unstamped Series read ok", res)
		}
		e.wantRead(t, site, ids[2])
		e.wantRead(t, site, ids[3])
	})

	// A Series that is gone reads not_found through the browser and gets
	// its failure row; the good Series beside it reads ok.
	t.Run("gone", func(t *testing.T) {
		e := newRouteEnv(t, chrome.HTTPURL(), 15*time.Second, routeOpts{})
		for _, site := range browserSites {
			ids := e.seed(t, site, 2)
			e.sim.SetSeries(site, ids[0], sitesim.Behavior{Mode: sitesim.Gone})
			res, _ := e.pass(t, site)
			if res.Skip != lanes.SkipNone || res.Checked != 2 || res.NotFound != 1 || res.OK != 1 {
				t.Errorf("%s: pass %+v, want one not_found and one ok", site, res)
			}
			if f := e.failures(t, site); len(f) != 1 || f[ids[0]] != string(sites.NotFound) {
				t.Errorf("%s: failure rows %v, want %s: not_found", site, f, ids[0])
			}
			e.wantRead(t, site, ids[1])
		}
	})
}

// Killing Chromium while a browser Lane reads gives unreachable for that
// read with no failure row, closes the shared browser gate on all three
// browser Lanes while a plain Lane in the same Manager keeps polling on
// schedule, and after a restart of Chromium (same debugging port, new
// browser id) and the gate's decay on the Lane clock the browser Lanes read
// ok again through the same Browser.
func TestBrowserKilledMidPassGatesBrowserLanes(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)

	// kagane is served through a wrapper that tells the test when the
	// Series page that hangs is being loaded, so the kill lands mid-read.
	const site = "kagane"
	var hang atomic.Pointer[string]
	var sim atomic.Pointer[sitesim.Sim]
	loading := make(chan struct{}, 1)
	wrap := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := hang.Load(); id != nil && r.URL.Path == "/series/"+*id {
			select {
			case loading <- struct{}{}:
			default:
			}
		}
		sim.Load().Handler(site).ServeHTTP(w, r)
	}))
	t.Cleanup(wrap.Close)
	e := newRouteEnv(t, chrome.HTTPURL(), 15*time.Second, routeOpts{origins: map[string]string{site: wrap.URL}})
	sim.Store(e.sim)

	ids := e.seed(t, site, 3)
	hangID := ids[1]
	hang.Store(&hangID)
	e.sim.SetSeries(site, hangID, sitesim.Behavior{Mode: sitesim.Hang})
	others := map[string][]string{}
	for _, s := range browserSites[1:] {
		others[s] = e.seed(t, s, 3)
	}

	type passOut struct {
		res  store.Pass
		pace time.Duration
	}
	done := make(chan passOut, 1)
	go func() {
		res, pace := e.pass(t, site)
		done <- passOut{res, pace}
	}()
	select {
	case <-loading:
	case out := <-done:
		t.Fatalf("pass ended before the hanging page was loaded: %+v", out.res)
	case <-time.After(90 * time.Second):
		t.Fatal("the hanging page was never requested")
	}
	chrome.Kill()
	out := <-done
	lost := e.clock.Now()
	if out.res.Skip != lanes.SkipNone || out.res.Checked != 2 || out.res.OK != 1 || out.res.Unreachable != 1 ||
		out.pace != lanes.BrowserLostWindow {
		t.Fatalf("pass across the kill: %+v pace %v, want one ok then one unreachable", out.res, out.pace)
	}
	if f := e.failures(t, site); len(f) != 0 {
		t.Fatalf("failure rows %v after an unreachable read", f)
	}
	if e.series(t, site, ids[2]).LatestCheckedAt != nil {
		t.Error("the Series after the lost read was stamped; the pass should have ended")
	}
	if e.series(t, site, hangID).LatestCheckedAt != nil {
		t.Error("the Series whose read was lost stayed stamped; it never reached the Site and should be due")
	}
	e.wantRead(t, site, ids[0])

	// All three browser Lanes are gated; the plain Lane is not.
	reopen := lost.Add(lanes.BrowserLostWindow)
	for _, s := range browserSites {
		rt := e.m.Runtime(s)
		if rt.BrowserDownUntil == nil || !rt.BrowserDownUntil.Equal(reopen) {
			t.Errorf("%s: BrowserDownUntil %v, want %v", s, rt.BrowserDownUntil, reopen)
		}
		res, _ := e.pass(t, s)
		if res.Skip != lanes.SkipBrowserDown || res.Checked != 0 {
			t.Errorf("%s during the gate: %+v, want skip browser_down", s, res)
		}
	}
	if rt := e.m.Runtime(plainSite); rt.BrowserDownUntil != nil {
		t.Errorf("plain Lane reports the browser gate until %v", rt.BrowserDownUntil)
	}

	// The plain Lane polls on schedule through the gate: what is due now,
	// then a Series that falls due five minutes later, still inside it.
	plainIDs := e.seed(t, plainSite, 4)
	late := e.clock.Now().Add(-sites.DefaultRest + 5*time.Minute)
	storetest.SetSeries(context.Background(), t, e.st, storetest.SeriesSet{Site: plainSite, IDs: plainIDs[3:4], CheckedAt: &late})
	res, pace := e.pass(t, plainSite)
	if res.Skip != lanes.SkipNone || res.Checked != 3 || res.OK != 3 {
		t.Fatalf("plain Lane during the gate: %+v, want 3 ok", res)
	}
	if next := late.Add(sites.DefaultRest); !e.clock.Now().Add(pace).Equal(next) {
		t.Fatalf("plain Lane pace %v from %v, want its next Series due at %v", pace, e.clock.Now(), next)
	}
	e.clock.Advance(pace)
	if !e.clock.Now().Before(reopen) {
		t.Fatalf("the plain Lane's next pass at %v is not inside the gate (until %v)", e.clock.Now(), reopen)
	}
	if res, _ := e.pass(t, plainSite); res.Skip != lanes.SkipNone || res.Checked != 1 || res.OK != 1 {
		t.Errorf("plain Lane's scheduled pass inside the gate: %+v, want 1 ok", res)
	}
	if res, _ := e.pass(t, "comix"); res.Skip != lanes.SkipBrowserDown {
		t.Errorf("comix at the plain Lane's second pass: %+v, want skip browser_down", res)
	}

	// Chromium comes back on the same port under a new browser id; the gate
	// decays on the Lane clock and every browser Lane reads again.
	oldWS := chrome.WSURL()
	if _, err := chrome.Restart(); err != nil {
		t.Fatal(err)
	}
	if chrome.WSURL() == oldWS {
		t.Logf("Chromium kept its DevTools URL across the restart: %s", oldWS)
	}
	e.sim.ClearSeries(site, hangID)
	e.clock.Advance(reopen.Sub(e.clock.Now()) + time.Second)
	for _, s := range browserSites {
		if rt := e.m.Runtime(s); rt.BrowserDownUntil != nil {
			t.Fatalf("%s: gate still closed at %v (until %v)", s, e.clock.Now(), rt.BrowserDownUntil)
		}
	}
	if res, _ := e.pass(t, site); res.Skip != lanes.SkipNone || res.Checked != 2 || res.OK != 2 {
		t.Errorf("%s after the restart and decay: %+v, want the lost read's Series and its unstamped one read ok", site, res)
	}
	e.wantRead(t, site, hangID)
	e.wantRead(t, site, ids[2])
	for s, sids := range others {
		if res, _ := e.pass(t, s); res.Skip != lanes.SkipNone || res.Checked != len(sids) || res.OK != len(sids) {
			t.Errorf("%s after the restart and decay: %+v, want %d ok", s, res, len(sids))
		}
		for _, id := range sids {
			e.wantRead(t, s, id)
		}
	}
}
