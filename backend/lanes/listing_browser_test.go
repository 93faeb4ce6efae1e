package lanes_test

import (
	"context"
	"crypto/md5"
	"testing"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/browser"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/listing"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store/storetest"
)

// browserListingSites are the browser Sites with a listing (Comix has
// none: docs/operations.md, "Listings").
var browserListingSites = []string{sitesim.Kagane, sitesim.Natomanga}

// newBrowserRoute is a Browser on chrome whose challenge wait is wait
// (wall time, the browser's own bound), closed at cleanup.
func newBrowserRoute(t testing.TB, chrome *chromiumtest.Chromium, wait time.Duration) sites.Fetcher {
	t.Helper()
	b, err := browser.New(browser.Config{WSURL: chrome.HTTPURL(), ChallengeWait: wait, ReadTimeout: 30 * time.Second,
		PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// checkedAt maps each followed Series to its stored check time.
func (h *listHarness) checkedAt(t *testing.T) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	for _, id := range h.followed {
		if s := getSeries(t, h.st, h.site, id); s.LatestCheckedAt != nil {
			out[id] = *s.LatestCheckedAt
		}
	}
	return out
}

// TestBrowserListings runs the browser Sites' listings through the Lanes,
// the real browser route (a real Chromium past the simulator's script
// challenge) and a fake Lane clock. The subtests share one Chromium.
func TestBrowserListings(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)

	// A chapter of a followed Series that shows on the listing is read
	// within one Gap of the listing read that saw it (in a Lane with
	// nothing else due: a hint sits behind what Rest made due before it,
	// ADR 0015), and stored; it opens the wake gate. No other Series'
	// check time moves, and nothing writes a failure row.
	for _, site := range browserListingSites {
		t.Run(site+"/listed_read_within_one_gap", func(t *testing.T) {
			h := newListHarness(t, listSpec{site: site, perSite: 60, followed: 20, route: newBrowserRoute(t, chrome, 15*time.Second)})
			h.sim.SetSite(site, sitesim.Behavior{Mode: sitesim.JSChallenge})
			// Read within the last half hour: nothing falls due on Rest
			// during the test.
			for _, id := range h.followed { // 0 to 30 minutes ago, by the id's hash
				sum := md5.Sum([]byte(id))
				storetest.SetSeries(context.Background(), t, h.st, storetest.SeriesSet{Site: site, IDs: []string{id},
					CheckedAt: storetest.At(t0.Add(-time.Duration(sum[0]) * 7 * time.Second))})
			}
			for i := 30; i < 40; i++ { // what the Site listed before: the first look's lines
				h.sim.BulkUpload(site, i, 1, t0.Add(-time.Duration(i)*time.Minute))
			}
			initial := h.checkedAt(t)
			before := h.sim.Latest(site, h.followed[3])
			at := t0.Add(7 * time.Minute)
			h.sim.BulkUpload(site, 3, 1, at)
			h.drive(t, 20*time.Minute)

			var seen time.Time
			for _, l := range h.listings(1) {
				if !l.Before(at) {
					seen = l
					break
				}
			}
			if seen.IsZero() || seen.Sub(at) > h.s.ListingEvery {
				t.Fatalf("no listing read within ListingEvery of the chapter: %v", h.listings(1))
			}
			var read time.Time
			for _, r := range h.reads()[h.followed[3]] {
				if !r.Before(at) {
					read = r
					break
				}
			}
			if read.IsZero() || read.Before(seen) || read.Sub(seen) > h.s.Gap {
				t.Fatalf("listing at %v, read at %v: want within one Gap (%v)", seen.Sub(t0), read.Sub(t0), h.s.Gap)
			}
			if got := h.sim.Latest(site, h.followed[3]); got == before || getSeries(t, h.st, site, h.followed[3]).LatestNumber != got {
				t.Fatalf("stored %q, Site shows %q (was %q)", getSeries(t, h.st, site, h.followed[3]).LatestNumber, got, before)
			}
			reads := h.reads()
			for id, c := range h.checkedAt(t) {
				if len(reads[id]) == 0 && !c.Equal(initial[id]) {
					t.Errorf("Series %s never read, yet its check time moved from %v to %v", id, initial[id].Sub(t0), c.Sub(t0))
				}
			}
			if f := h.failureRows(t); f != 0 {
				t.Fatalf("%d failure rows", f)
			}
		})
	}

	// A challenged listing (one that never clears) is refused for the Lane
	// like a refused read: with one refused read after it the Lane backs
	// off; no failure row is written and the listing state says refused.
	for _, site := range browserListingSites {
		t.Run(site+"/challenged_listing_refused", func(t *testing.T) {
			h := newListHarness(t, listSpec{site: site, perSite: 50, followed: 3, route: newBrowserRoute(t, chrome, 3*time.Second)})
			ctx := context.Background()
			storetest.SetSeries(ctx, t, h.st, storetest.SeriesSet{Site: site, IDs: h.followed[:1], CheckedAt: storetest.At(t0.Add(-2 * time.Hour))})
			h.sim.SetListing(site, sitesim.Behavior{Mode: sitesim.JSChallengeStuck})
			h.sim.SetSeries(site, h.followed[0], sitesim.Behavior{Mode: sitesim.JSChallengeStuck})
			h.clock.SetActors(1)
			res, pace := h.m.RunPass(ctx, site)
			h.clock.SetActors(0)
			if !res.Listing || res.Refused != 1 || pace != lanes.RefuseBackoff {
				t.Fatalf("pass %+v, pace %v: a refused listing and a refused read did not back off", res, pace)
			}
			st, err := h.st.GetListing(ctx, site)
			if err != nil || st.LastOutcome != string(sites.Refused) || st.Failures != 1 || st.Hinted != 0 {
				t.Fatalf("listing state %+v %v", st, err)
			}
			if f := h.failureRows(t); f != 0 {
				t.Fatalf("%d failure rows", f)
			}
		})
	}

	// A listing whose shape changed hints nothing and writes nothing but
	// its own state, which says so once it has failed three times in a
	// row; the Series it would have named waits for Rest.
	for _, site := range browserListingSites {
		t.Run(site+"/shape_changed", func(t *testing.T) {
			h := newListHarness(t, listSpec{site: site, perSite: 50, followed: 10, route: newBrowserRoute(t, chrome, 15*time.Second)})
			h.sim.SetListing(site, sitesim.Behavior{Mode: sitesim.LayoutChanged})
			h.sim.BulkUpload(site, 2, 1, t0.Add(time.Minute))
			initial := h.checkedAt(t)
			h.drive(t, 15*time.Minute)
			st, err := h.st.GetListing(context.Background(), site)
			if err != nil || st.LastOutcome != string(sites.NoChapter) || !listing.Failing(st) || st.Hinted != 0 || len(h.listings(1)) < listing.FailuresToSay {
				t.Fatalf("listing state %+v %v after %d reads", st, err, len(h.listings(1)))
			}
			// The Lane's listing object (the admin API's) says so.
			if v := admin.ListingView(h.s, st); v == nil || !v.Failing || v.LastOutcome != string(sites.NoChapter) || v.Failures < listing.FailuresToSay {
				t.Fatalf("the Lane's listing shows %+v", v)
			}
			if r := h.reads()[h.followed[2]]; len(r) != 0 {
				t.Fatalf("Series 2 read at %v: a changed listing hinted it", r[0].Sub(t0))
			}
			if c := h.checkedAt(t)[h.followed[2]]; !c.Equal(initial[h.followed[2]]) {
				t.Fatalf("Series 2's check time moved to %v", c.Sub(t0))
			}
			if f := h.failureRows(t); f != 0 {
				t.Fatalf("%d failure rows", f)
			}
		})
	}

	// No Series less due: over 75 minutes of chapters on most followed
	// Series, every followed Series is read within Rest (plus what the
	// Lane fell behind and the hints queued before it) of its last read,
	// listed or not, and nothing writes a failure row.
	for _, site := range browserListingSites {
		t.Run(site+"/no_series_less_due", func(t *testing.T) {
			h := newListHarness(t, listSpec{site: site, perSite: 80, followed: 30, perDay: 2000, route: newBrowserRoute(t, chrome, 15*time.Second)})
			h.sim.SetSite(site, sitesim.Behavior{Mode: sitesim.JSChallenge})
			h.drive(t, 75*time.Minute)
			end := h.clock.Now()
			passes, err := h.st.ListPasses(context.Background(), site, 10000)
			if err != nil {
				t.Fatal(err)
			}
			var behind time.Duration
			hints, most := 0, 0
			for _, p := range passes {
				behind, hints, most = max(behind, p.BehindBy), hints+p.Hinted, max(most, p.Hinted)
			}
			if hints == 0 {
				t.Fatal("the listing hinted nothing: the test proves nothing")
			}
			slack := behind + time.Duration(most+2)*h.s.Gap
			reads := h.reads()
			for i, id := range h.followed {
				prev := t0.Add(-h.s.Rest + time.Duration(i+1)*h.s.Rest/time.Duration(len(h.followed)+1))
				for _, r := range append(reads[id], end) {
					if r.Sub(prev) > h.s.Rest+slack {
						t.Fatalf("Series %s waited %v between reads (Rest %v, slack %v): made less due", id, r.Sub(prev), h.s.Rest, slack)
					}
					prev = r
				}
			}
			if f := h.failureRows(t); f != 0 {
				t.Fatalf("%d failure rows", f)
			}
		})
	}

	// A Lane the wake gate holds (two Series due on Rest, fewer than
	// WakeGateDue) still reads its listing every ListingEvery, and the
	// gate still holds the two until its wait is over.
	t.Run("asleep_lane_lists", func(t *testing.T) {
		const site = sitesim.Kagane
		h := newListHarness(t, listSpec{site: site, perSite: 20, followed: 5, route: newBrowserRoute(t, chrome, 15*time.Second)})
		ctx := context.Background()
		storetest.SetSeries(ctx, t, h.st, storetest.SeriesSet{Site: site, CheckedAt: storetest.At(t0)})
		storetest.SetSeries(ctx, t, h.st, storetest.SeriesSet{Site: site, IDs: h.followed[:2], CheckedAt: storetest.At(t0.Add(-h.s.Rest - time.Minute))})
		h.drive(t, 13*time.Minute)
		if l := h.listings(1); len(l) != 3 {
			t.Fatalf("listing reads at %v in 13 minutes asleep, want 3 (every %v)", l, h.s.ListingEvery)
		}
		if r := h.reads(); len(r) != 0 {
			t.Fatalf("the wake gate let reads through: %v", r)
		}
	})

	// The tab's cost: with nothing due, a browser Lane with a listing
	// loads one page per ListingEvery and nothing else; one without a
	// listing (Comix, or a listing turned off) never touches the tab.
	t.Run("tab_cost_when_nothing_is_due", func(t *testing.T) {
		for _, c := range []struct {
			site  string
			every time.Duration
			want  int
		}{{sitesim.Kagane, 0, 10}, {sitesim.Natomanga, 0, 10}, {sitesim.Kagane, -1, 0}, {sitesim.Comix, 0, 0}} {
			h := newListHarness(t, listSpec{site: c.site, perSite: 20, followed: 5, every: c.every, route: newBrowserRoute(t, chrome, 15*time.Second)})
			storetest.SetSeries(context.Background(), t, h.st, storetest.SeriesSet{Site: c.site, CheckedAt: storetest.At(t0)})
			h.drive(t, 50*time.Minute)
			n := len(h.rec.fetches())
			if n != c.want || len(h.listings(1)) != c.want {
				t.Errorf("%s (ListingEvery %v): %d tab loads, %d of them listings, in 50 minutes with nothing due; want %d", c.site, c.every, n, len(h.listings(1)), c.want)
			}
		}
	})
}
