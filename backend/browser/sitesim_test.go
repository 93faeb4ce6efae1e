package browser_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/browser"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
)

// browserOutcome is the outcome a browser Site's read ends in through the
// browser route for each simulator mode: the plain route's table, except
// that the script challenge is passed.
func browserOutcome(site string, m sitesim.Mode) sites.Outcome {
	switch m {
	case sitesim.Steady, sitesim.Slow, sitesim.JSChallenge:
		return sites.OK
	case sitesim.Gone:
		return sites.NotFound
	case sitesim.LayoutChanged:
		return sites.NoChapter
	case sitesim.ServerError, sitesim.Hang:
		return sites.Errors
	case sitesim.Malformed:
		if site == "comix" { // its Latest Chapter is in the title page, which Chrome parses leniently
			return sites.NoChapter
		}
		return sites.Unfetchable // kagane's and natomanga's chapters come as JSON, which a truncated body breaks
	case sitesim.Challenge, sitesim.JSChallengeStuck:
		return sites.Refused
	}
	return sites.Unfetchable // oversized, endless, redirects, huge length, wrong type, 403, 429
}

// The three browser Sites of the simulator, read by their real adapters
// through the browser route, in every simulator mode. The script challenge
// is read ok through the browser while the plain route is refused on the
// same Series; a challenge that never clears is refused after the deadline.
func TestSimulatorThroughBrowser(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	modes := sitesim.Modes()
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: len(modes) + 1})
	reg := simtest.Registry(t, sim)
	plain := sitestest.Plain(t, sites.PlainOptions{})
	for _, s := range reg.All() {
		if !s.Browser {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			// Hang, the stuck challenges and the endless page end at the
			// bounds of the first Browser, long enough for a challenge page
			// to load on a loaded machine (a stuck challenge is refused only
			// once it has been seen); every other mode must never meet a
			// bound, so the second Browser's are far above a read's time.
			bounded := newBrowser(t, browser.Config{WSURL: chrome.WSURL(), ChallengeWait: 8 * time.Second, ReadTimeout: 8 * time.Second})
			loads := newBrowser(t, browser.Config{WSURL: chrome.WSURL(), ChallengeWait: time.Minute, ReadTimeout: time.Minute})
			for i, m := range modes {
				id := sim.SeriesID(s.Name, i)
				sim.SetSeries(s.Name, id, sitesim.Behavior{Mode: m, Delay: 10 * time.Millisecond})
				b := loads
				switch m {
				case sitesim.Hang, sitesim.Challenge, sitesim.JSChallengeStuck, sitesim.Endless:
					b = bounded
				}
				start := time.Now()
				res := readSeries(s, b, id)
				t.Logf("%s: %s in %s", m, res.Outcome, time.Since(start).Round(time.Millisecond))
				want := browserOutcome(s.Name, m)
				// A page streaming forever is cut at the size limit, unless
				// Chrome, parsing it, takes in less than that before the
				// deadline: either way the read fails and writes its row.
				if m == sitesim.Endless && res.Outcome == sites.Errors {
					want = sites.Errors
				}
				if res.Outcome != want {
					t.Errorf("%s: outcome %s (%v), want %s", m, res.Outcome, res.Err, want)
				}
				if res.Outcome == sites.OK && (res.Facts.Latest == nil || res.Facts.Latest.Number != sim.Latest(s.Name, id)) {
					t.Errorf("%s: latest %+v, want %s", m, res.Facts.Latest, sim.Latest(s.Name, id))
				}
				if m == sitesim.JSChallenge {
					if got := readSeries(s, plain, id).Outcome; got != sites.Refused {
						t.Errorf("%s through the plain route: %s, want refused", m, got)
					}
				}
			}
		})
	}
}

func readSeries(s *sites.Site, f sites.Fetcher, id string) sites.Result {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return s.Adapter.Read(ctx, s, f, id)
}
