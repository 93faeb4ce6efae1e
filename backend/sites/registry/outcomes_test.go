package registry_test

import (
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
)

// jsonFirst Sites fetch a JSON document that a Malformed body breaks
// (unfetchable); the others' HTML parses leniently to no chapter at all.
var jsonFirst = map[string]bool{"mangadex": true, "kagane": true, "natomanga": true}

func wantOutcome(site string, m sitesim.Mode) sites.Outcome {
	switch m {
	case sitesim.Steady, sitesim.Slow:
		return sites.OK
	case sitesim.Gone:
		return sites.NotFound
	case sitesim.LayoutChanged:
		return sites.NoChapter
	case sitesim.ServerError, sitesim.Hang:
		return sites.Errors
	case sitesim.Malformed:
		if jsonFirst[site] {
			return sites.Unfetchable
		}
		return sites.NoChapter
	case sitesim.Challenge, sitesim.JSChallenge, sitesim.JSChallengeStuck:
		return sites.Refused
	}
	return sites.Unfetchable // oversized, endless, redirects, huge length, wrong type, 403, 429
}

// Every Site × every simulator mode, over real HTTP through the registry
// and the plain route, ends in the outcome SPEC's table gives. Browser
// Sites are read through the plain route here (which fetches Request.Data
// directly), so their adapters meet the simulator's formats too; a plain
// client never passes the JS challenge, which is what this shows.
func TestOutcomesEverySiteEveryMode(t *testing.T) {
	t.Parallel()
	modes := sitesim.Modes()
	sim, reg := startSim(t, len(modes)+1)
	// Only Hang needs a timeout to end; it gets a short one so the test stays
	// quick, the rest the default, so a loaded machine cannot turn a slow
	// answer into a timeout.
	route := sitestest.Plain(t, sites.PlainOptions{})
	hangRoute := sitestest.Plain(t, sites.PlainOptions{TotalTimeout: 500 * time.Millisecond})
	for _, s := range reg.All() {
		for i, m := range modes {
			id := sim.SeriesID(s.Name, i)
			sim.SetSeries(s.Name, id, sitesim.Behavior{Mode: m, Delay: 10 * time.Millisecond})
		}
	}
	var wg sync.WaitGroup
	for _, s := range reg.All() {
		for i, m := range modes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := sim.SeriesID(s.Name, i)
				r := route
				if m == sitesim.Hang {
					r = hangRoute
				}
				res := read(t, reg, r, sim.SeriesURL(s.Name, id))
				if want := wantOutcome(s.Name, m); res.Outcome != want {
					t.Errorf("%s × %s: outcome %s, want %s (status %d, err %v)", s.Name, m, res.Outcome, want, res.Status, res.Err)
				}
				if res.Outcome == sites.OK && (res.Facts.Latest == nil || res.Facts.Latest.Number != sim.Latest(s.Name, id)) {
					t.Errorf("%s × %s: latest %+v, want %s", s.Name, m, res.Facts.Latest, sim.Latest(s.Name, id))
				}
			}()
		}
	}
	wg.Wait()
}

// Comix's own WAF sends the title page to its "Security check" page under
// /@waf/, which answers 200: a challenge (refused), never a page read.
func TestOutcomeComixWAFIsRefused(t *testing.T) {
	t.Parallel()
	sim, reg := startSim(t, 3)
	id := sim.SeriesID("comix", 1)
	sim.SetSeries("comix", id, sitesim.Behavior{WAF: true})
	res := read(t, reg, sitestest.Plain(t, sites.PlainOptions{}), sim.SeriesURL("comix", id))
	if res.Outcome != sites.Refused {
		t.Fatalf("outcome %s (status %d, err %v), want refused", res.Outcome, res.Status, res.Err)
	}
}
