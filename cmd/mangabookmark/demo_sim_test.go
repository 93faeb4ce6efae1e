package main

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alecthomas/kong"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store/dbtest"
)

// demoDefaults is the demo command as `make demo` runs it: every flag at
// its default.
func demoDefaults(t *testing.T) DemoCmd {
	t.Helper()
	var cli CLI
	parser, err := kong.New(&cli, kong.Vars{"sim_modes": simModes()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse([]string{"demo"}); err != nil {
		t.Fatal(err)
	}
	return cli.Demo
}

// TestDemoKeepsPublishing runs `make demo`'s simulator and library for a
// simulated hour under the real Lanes (their listings, hints and Rest;
// no Chromium, so the three browser Sites stay skipped, the demo's least
// lively form) and samples the Owner's library every simulated minute,
// as the page would show it: New Chapters keep arriving in every
// ten-minute window, chapters published after the start among them. It
// logs the minutes from the start to the first New Chapter shown, to the
// first one published after the start, and the longest wait between two.
func TestDemoKeepsPublishing(t *testing.T) {
	t.Parallel()
	c := demoDefaults(t)
	t0 := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	clock := lanestest.NewFakeClock(t0)
	sim, err := demoSim(c.Series, c.NewEvery, c.Refusing, clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	first, firstFresh, perWindow := demoHour(t, c.Series, sim, clock, t0)
	if first < 0 || first > 3*time.Minute {
		t.Errorf("the first New Chapter showed at %v, want within 3 minutes", first)
	}
	if firstFresh < 0 {
		t.Error("no chapter published after the start arrived")
	}
	for i, n := range perWindow {
		if n == 0 {
			t.Errorf("no New Chapter published after the start arrived between minute %d and %d", i*10, (i+1)*10)
		}
	}
}

// demoHour runs the demo's library over sim (not yet started, on clock
// from t0) for a simulated hour and returns when the first New Chapter
// showed, when the first published after t0 did (-1: never) and how many
// of those arrived in each ten-minute window.
func demoHour(t *testing.T, series int, sim *sitesim.Sim, clock *lanestest.FakeClock, t0 time.Time) (first, firstFresh time.Duration, perWindow []int) {
	t.Helper()
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Close)
	reg, err := registry.FromEnv(sim.OriginsValue())
	if err != nil {
		t.Fatal(err)
	}
	st := dbtest.New(t)
	ctx := context.Background()
	owner, _, err := demoLibrary(ctx, st, reg, sim, series, demoOwnerID, t0)
	if err != nil {
		t.Fatal(err)
	}
	atStart := map[string]string{} // Latest Chapter shown at the start, by site/id
	for _, name := range sitesim.SiteNames {
		for _, id := range sim.SeriesIDs(name, series) {
			atStart[name+"/"+id] = sim.Latest(name, id)
		}
	}
	plain := sitestest.Plain(t, sites.PlainOptions{TotalTimeout: 10 * time.Second})
	m, err := lanes.New(lanes.Config{Store: st, Sites: reg, Plain: plain, Clock: clock, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Stop)

	const span = time.Hour
	end := t0.Add(span)
	all := reg.All()
	var left atomic.Int32
	left.Store(int32(len(all) + 1))
	clock.SetActors(len(all) + 1)
	done := func() { clock.SetActors(int(left.Add(-1))) }
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Go(func() {
			defer done()
			for clock.Now().Before(end) {
				_, pace := m.RunPass(ctx, s.Name)
				if err := clock.Sleep(ctx, pace); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	// The observer: the Owner's library each simulated minute. An arrival
	// is a bookmark shown New whose Latest Chapter moved since the last
	// look (or that was not New then).
	type arrival struct {
		at    time.Duration
		fresh bool // a chapter published after the start
	}
	var arrivals []arrival
	wg.Go(func() {
		defer done()
		shown := map[string]string{}
		for now := clock.Now(); now.Before(end); now = clock.Now() {
			items, err := st.Library(ctx, owner.ID)
			if err != nil {
				t.Error(err)
				return
			}
			for _, it := range items {
				k := it.Site + "/" + it.SeriesID
				if !it.New {
					delete(shown, k)
					continue
				}
				if shown[k] != it.LatestNumber {
					arrivals = append(arrivals, arrival{at: now.Sub(t0), fresh: it.LatestNumber != atStart[k]})
				}
				shown[k] = it.LatestNumber
			}
			if err := clock.Sleep(ctx, time.Minute); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	const window = 10 * time.Minute
	perWindow = make([]int, span/window)
	first, firstFresh = -1, -1
	longest, last, fresh := time.Duration(0), time.Duration(0), 0
	for _, a := range arrivals {
		if first < 0 {
			first = a.at
		}
		if !a.fresh {
			continue
		}
		if firstFresh < 0 {
			firstFresh = a.at
		}
		fresh++
		longest, last = max(longest, a.at-last), a.at
		perWindow[a.at/window]++
	}
	longest = max(longest, span-last)
	t.Logf("simulated hour: first New Chapter shown at %.0f min, first published after the start at %.0f min; "+
		"%d arrivals, %d of chapters published after the start, per 10 minutes %v, longest wait %.0f min",
		first.Minutes(), firstFresh.Minutes(), len(arrivals), fresh, perWindow, longest.Minutes())
	return first, firstFresh, perWindow
}
