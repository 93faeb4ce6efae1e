package lanes_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/store/storetest"
)

// An unreachable sidecar gates every browser Lane for 15 minutes and then
// decays; plain Lanes are unaffected.
func TestBrowserLostGatesAllBrowserLanesAndDecays(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "b1", browser: true}, siteSpec{name: "b2", browser: true}, siteSpec{name: "p"})
	for _, s := range []string{"b1", "b2", "p"} {
		e.seed(t, s, 6, t0.Add(-time.Hour))
	}
	e.ad["b1"].setOutcome("2", sites.Unreachable)
	res, pace := e.runPass(t, "b1")
	if res.Unreachable != 1 || res.Checked != 2 || pace != lanes.BrowserLostWindow {
		t.Fatalf("b1 pass %+v pace %v", res, pace)
	}
	// One read ok; the unreachable one never reached the Site, so its
	// Series is put back as due: five never-checked Series remain.
	if n := e.unchecked(t, "b1"); n != 5 {
		t.Fatalf("b1 unchecked = %d, want 5", n)
	}
	rt := e.m.Runtime("b2")
	if rt.BrowserDownUntil == nil || !rt.BrowserDownUntil.Equal(e.clock.Now().Add(lanes.BrowserLostWindow)) || !rt.Enabled || rt.NoBrowser {
		t.Fatalf("runtime %+v", rt)
	}
	if res, _ := e.runPass(t, "b2"); res.Skip != lanes.SkipBrowserDown || res.Checked != 0 || res.Due != 6 {
		t.Fatalf("b2 during the window: %+v", res)
	}
	if res, _ := e.runPass(t, "p"); res.Skip != "" || res.Checked != 6 {
		t.Fatalf("plain Lane during the window: %+v", res)
	}
	if rt := e.m.Runtime("p"); rt.BrowserDownUntil != nil {
		t.Fatal("plain Lane reports the browser gate")
	}
	e.clock.Advance(lanes.BrowserLostWindow)
	if rt := e.m.Runtime("b2"); rt.BrowserDownUntil != nil {
		t.Fatalf("flag did not decay: %+v", rt)
	}
	if res, _ := e.runPass(t, "b2"); res.Skip != "" || res.Checked != 6 {
		t.Fatalf("b2 after decay: %+v", res)
	}
}

func TestNoBrowserRouteSkipsBrowserSitesOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *lanes.Config) { c.Browser = nil }, siteSpec{name: "b", browser: true}, siteSpec{name: "p"})
	e.seed(t, "b", 6, t0.Add(-time.Hour))
	e.seed(t, "p", 2, t0.Add(-time.Hour))
	if res, _ := e.runPass(t, "b"); res.Skip != lanes.SkipNoBrowser || res.Due != 6 || e.unchecked(t, "b") != 6 {
		t.Fatalf("browser Site: %+v", res)
	}
	if !e.m.Runtime("b").NoBrowser || e.m.Runtime("p").NoBrowser {
		t.Fatal("runtime NoBrowser wrong")
	}
	if res, _ := e.runPass(t, "p"); res.Skip != "" || res.Checked != 2 {
		t.Fatalf("plain Site: %+v", res)
	}
}

// The wake gate leaves a browser Lane asleep below five routinely due
// Series until the oldest has waited 15 minutes.
func TestWakeGate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "b", browser: true}, siteSpec{name: "p"})
	now := e.clock.Now()
	e.seedChecked(t, "b", 3, now.Add(-sites.DefaultRest-10*time.Minute))
	e.seedChecked(t, "p", 3, now.Add(-sites.DefaultRest-10*time.Minute))
	res, pace := e.runPass(t, "b")
	if res.Skip != lanes.SkipAsleep || res.Due != 3 || pace < 4*time.Minute || pace > 5*time.Minute+time.Second {
		t.Fatalf("asleep: %+v pace %v", res, pace)
	}
	if res, _ := e.runPass(t, "p"); res.Skip != "" || res.Checked != 3 {
		t.Fatalf("plain Lanes have no wake gate: %+v", res)
	}
	e.clock.Advance(5 * time.Minute)
	if res, _ := e.runPass(t, "b"); res.Skip != "" || res.Checked != 3 {
		t.Fatalf("after 15m: %+v", res)
	}
	// Five due wake it at once.
	e2 := newEnv(t, nil, siteSpec{name: "b", browser: true})
	e2.seedChecked(t, "b", 5, e2.clock.Now().Add(-sites.DefaultRest-time.Second))
	if res, _ := e2.runPass(t, "b"); res.Skip != "" || res.Checked != 5 {
		t.Fatalf("five due: %+v", res)
	}
}

// The gate also opens by count: a Lane held with three Series due sleeps
// only until the fifth falls due by Rest, not until the oldest has waited
// 15 minutes (in a Lane of many Series the long sleep would add the gate's
// wait to every Series' Rest, each time round).
func TestWakeGateOpensWhenTheFifthFallsDue(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "b", browser: true})
	now := e.clock.Now()
	e.seedChecked(t, "b", 3, now.Add(-sites.DefaultRest-time.Minute))
	created := storetest.At(now.Add(-48 * time.Hour))
	storetest.Series(context.Background(), t, e.st,
		storetest.SeriesOpts{Site: "b", ID: "4", URL: "https://x/4", CreatedAt: created, CheckedAt: storetest.At(now.Add(-sites.DefaultRest + 2*time.Minute))},
		storetest.SeriesOpts{Site: "b", ID: "5", URL: "https://x/5", CreatedAt: created, CheckedAt: storetest.At(now.Add(-sites.DefaultRest + 3*time.Minute))},
		storetest.SeriesOpts{Site: "b", ID: "6", URL: "https://x/6", CreatedAt: created, CheckedAt: storetest.At(now.Add(-10 * time.Minute))})
	res, pace := e.runPass(t, "b")
	if res.Skip != lanes.SkipAsleep || res.Due != 3 || pace != 3*time.Minute {
		t.Fatalf("asleep: %+v pace %v, want 3m (the fifth falls due then)", res, pace)
	}
	e.clock.Advance(pace)
	if res, _ := e.runPass(t, "b"); res.Skip != "" || res.Checked != 5 {
		t.Fatalf("five due: %+v", res)
	}
}

func TestPauseAndResume(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "s"})
	ctx := context.Background()
	e.seed(t, "s", 2, t0.Add(-time.Hour))
	if _, err := e.st.PauseLane(ctx, "s", e.clock.Now().Add(2*time.Hour), "site migration"); err != nil {
		t.Fatal(err)
	}
	res, pace := e.runPass(t, "s")
	if res.Skip != lanes.SkipPaused || res.Checked != 0 || pace != sites.DefaultRest || res.Due != 2 {
		t.Fatalf("paused: %+v pace %v", res, pace)
	}
	if d := time.Hour - res.BehindBy; d < 0 || d > time.Millisecond {
		t.Fatalf("a skipped pass still records behind-by: %v", res.BehindBy)
	}
	if _, err := e.st.ResumeLane(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	if res, _ := e.runPass(t, "s"); res.Skip != "" || res.Checked != 2 {
		t.Fatalf("resumed: %+v", res)
	}
	// Nothing due: the pass ran, idle, and paces to the next due Series.
	res, pace = e.runPass(t, "s")
	if res.Skip != "" || res.Due != 0 || res.Checked != 0 || pace != sites.DefaultRest-10*time.Second {
		t.Fatalf("idle: %+v pace %v", res, pace)
	}
}

// A failed due read is a skip value and a short pace, not a crash.
func TestStoreErrorIsASkip(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "s"})
	e.seed(t, "s", 2, t0.Add(-time.Hour))
	if _, err := e.st.Pool().Exec(context.Background(), `ALTER TABLE series RENAME TO series_gone`); err != nil {
		t.Fatal(err)
	}
	res, pace := e.runPass(t, "s")
	if res.Skip != lanes.SkipStoreError || pace != 30*time.Second {
		t.Fatalf("store error: %+v pace %v", res, pace)
	}
	if _, err := e.st.Pool().Exec(context.Background(), `ALTER TABLE series_gone RENAME TO series`); err != nil {
		t.Fatal(err)
	}
	if p := e.passes(t, "s"); len(p) != 1 || p[0].Skip != lanes.SkipStoreError {
		t.Fatalf("pass rows %+v", p)
	}
}

func TestEffectiveGap(t *testing.T) {
	t.Parallel()
	s := &sites.Site{Gap: 10 * time.Second}
	for _, c := range []struct {
		n     int
		gap   time.Duration
		floor bool
	}{{0, 10 * time.Second, false}, {100, 10 * time.Second, false}, {360, 10 * time.Second, false},
		{720, 5 * time.Second, false}, {3600, time.Second, false}, {3601, time.Second, true}, {20000, time.Second, true}} {
		g, f := lanes.EffectiveGap(s, c.n)
		if g != c.gap || f != c.floor {
			t.Errorf("EffectiveGap(%d) = %v %v, want %v %v", c.n, g, f, c.gap, c.floor)
		}
	}
	// A Site with a listing shares the hour with its listing reads too:
	// 1,000 Series and 12 listing reads an hour.
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	kg := reg.Get("kagane")
	if n := lanes.ListingSlots(kg); n != 12 {
		t.Fatalf("ListingSlots = %d, want 12 at %v", n, kg.ListingEvery)
	}
	if g, _ := lanes.EffectiveGap(kg, 1000); g != time.Hour/1012 {
		t.Errorf("EffectiveGap(kagane, 1000) = %v, want %v", g, time.Hour/1012)
	}
	if n := lanes.ListingSlots(reg.Get("comix")); n != 0 {
		t.Errorf("Comix (no listing) has %d listing slots", n)
	}
}

// A failure row that cannot be written is logged and the Lane goes on.
func TestFailureRowWriteErrorDoesNotStopTheLane(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "s"})
	e.seed(t, "s", 4, t0.Add(-time.Hour))
	for _, id := range []string{"1", "2", "3"} {
		e.ad["s"].setOutcome(id, sites.Errors)
	}
	if _, err := e.st.Pool().Exec(context.Background(), `ALTER TABLE poll_failures RENAME TO poll_failures_gone`); err != nil {
		t.Fatal(err)
	}
	res, _ := e.runPass(t, "s")
	if res.Skip != "" || res.Checked != 4 || res.Errors != 3 || res.OK != 1 {
		t.Fatalf("pass %+v", res)
	}
}

// A good read counts as new only when it records a Chapter Event: the
// first read is the baseline, a number above it is new.
func TestNewCountsMovedChapters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "s"})
	e.seed(t, "s", 2, t0.Add(-time.Hour))
	if res, _ := e.runPass(t, "s"); res.OK != 2 || res.New != 0 {
		t.Fatalf("first reads are not new: %+v", res)
	}
	e.ad["s"].set("2", okResult("2", ""))
	e.clock.Advance(time.Hour)
	if res, _ := e.runPass(t, "s"); res.OK != 2 || res.New != 1 {
		t.Fatalf("one chapter moved: %+v", res)
	}
	if s := e.series(t, "s", "2"); s.LatestNumber != "2" || !s.LatestSeenAt.Equal(e.clock.Now()) {
		t.Fatalf("series 2: %+v", s)
	}
	if s := e.series(t, "s", "1"); !s.LatestSeenAt.Equal(t0) {
		t.Fatalf("unchanged chapter moved latest_seen_at: %v", s.LatestSeenAt)
	}
}
