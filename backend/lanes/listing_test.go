package lanes_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/listing"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

var listingSites = []string{sitesim.MangaDex, sitesim.MangaPill, sitesim.WeebCentral}

// A chapter of a followed Series that shows on the listing is read within
// one Gap of the listing read that saw it, and stored; the listing never
// stored it itself (the Latest Chapter moves only with the read).
func TestListedSeriesReadWithinOneGap(t *testing.T) {
	t.Parallel()
	for _, site := range listingSites {
		t.Run(site, func(t *testing.T) {
			t.Parallel()
			h := newListHarness(t, listSpec{site: site, perSite: 400, followed: 20})
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
			gap := h.s.Gap
			if read.IsZero() || read.Before(seen) || read.Sub(seen) > gap {
				t.Fatalf("listing at %v, read at %v: want within one Gap (%v)", seen.Sub(t0), read.Sub(t0), gap)
			}
			got := h.sim.Latest(site, h.followed[3])
			if s := getSeries(t, h.st, site, h.followed[3]); s.LatestNumber != got || got == before {
				t.Fatalf("stored %q, Site shows %q (was %q)", s.LatestNumber, got, before)
			}
			passes, err := h.st.ListPasses(context.Background(), site, 1000)
			if err != nil {
				t.Fatal(err)
			}
			hinted, listed := 0, 0
			for _, p := range passes {
				hinted += p.Hinted
				if p.Listing {
					listed++
				}
			}
			if hinted != 1 || listed != len(h.listings(1)) {
				t.Fatalf("pass rows count %d hinted, %d listing reads; fetches show %d", hinted, listed, len(h.listings(1)))
			}
		})
	}
}

// Over three simulated hours of Poisson publication: every followed Series
// is still read within Rest of its last read (listed or not: nothing made
// it less due), a Series the listing never names is read on Rest alone,
// and every listed chapter is stored within ListingEvery plus a Gap.
func TestListingKeepsRest(t *testing.T) {
	t.Parallel()
	h := newListHarness(t, listSpec{site: sitesim.MangaDex, perSite: 2000, followed: 150, perDay: 8000})
	span := 3 * time.Hour
	h.drive(t, span)
	end := h.clock.Now()
	reads := h.reads()
	// A read can wait past Rest only for the Series that became due before
	// it (the Lane's behind-by, and at most one listing's hints, each due
	// from the listing read on, at one per Gap): its own due time never
	// moves later.
	passes, err := h.st.ListPasses(context.Background(), sitesim.MangaDex, 100000)
	if err != nil {
		t.Fatal(err)
	}
	var behind time.Duration
	hints := 0
	for _, p := range passes {
		behind, hints = max(behind, p.BehindBy), max(hints, p.Hinted)
	}
	slack := behind + time.Duration(hints+2)*h.s.Gap
	if slack > 5*time.Minute {
		t.Fatalf("the Lane fell %v behind: the Site is too big for the test", slack)
	}
	listed := map[string]bool{}
	for _, r := range h.sim.Releases(sitesim.MangaDex, end) {
		listed[r.SeriesID] = true
	}
	unlisted := 0
	for i, id := range h.followed {
		rs := reads[id]
		prev := t0.Add(-h.s.Rest + time.Duration(i+1)*h.s.Rest/time.Duration(len(h.followed)+1))
		for _, r := range append(rs, end) {
			if r.Sub(prev) > h.s.Rest+slack {
				t.Fatalf("Series %s waited %v between reads (Rest %v): made less due", id, r.Sub(prev), h.s.Rest)
			}
			prev = r
		}
		if !listed[id] {
			unlisted++
			if len(rs) < 2 {
				t.Fatalf("unlisted Series %s read %d times in %v", id, len(rs), span)
			}
			for j := 1; j < len(rs); j++ {
				if d := rs[j].Sub(rs[j-1]); d < h.s.Rest {
					t.Fatalf("unlisted Series %s read %v after its last read: not on Rest", id, d)
				}
			}
		}
	}
	if unlisted == 0 || len(listed) == 0 {
		t.Fatalf("the draw gave %d unlisted and %d listed Series: the test proves nothing", unlisted, len(listed))
	}
	lat := h.latencies(t0, end.Add(-10*time.Minute), end)
	if len(lat) < 20 {
		t.Fatalf("only %d chapters of followed Series", len(lat))
	}
	if worst := lat[len(lat)-1]; worst > h.s.ListingEvery+2*h.s.Gap {
		t.Fatalf("a listed chapter waited %v (ListingEvery %v)", worst, h.s.ListingEvery)
	}
	if f := h.failureRows(t); f != 0 {
		t.Fatalf("%d failure rows", f)
	}
}

func (h *listHarness) failureRows(t testing.TB) int {
	t.Helper()
	var n int
	if err := h.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM poll_failures WHERE site = $1`, h.site).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A listing that fails, whatever the outcome, writes no failure row for any
// Series; three failures in a row are counted for the Lane to say so, and
// Rest carries on (the due Series are read).
func TestFailingListingWritesNoFailureRow(t *testing.T) {
	t.Parallel()
	for _, mode := range []sitesim.Mode{sitesim.ServerError, sitesim.Gone, sitesim.LayoutChanged, sitesim.Forbidden} {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			h := newListHarness(t, listSpec{site: sitesim.MangaPill, perSite: 100, followed: 10})
			h.sim.SetListing(sitesim.MangaPill, sitesim.Behavior{Mode: mode})
			h.sim.BulkUpload(sitesim.MangaPill, 2, 1, t0.Add(time.Minute))
			h.drive(t, 70*time.Minute)
			if f := h.failureRows(t); f != 0 {
				t.Fatalf("%d failure rows after failing listings", f)
			}
			st, err := h.st.GetListing(context.Background(), sitesim.MangaPill)
			if err != nil {
				t.Fatal(err)
			}
			if !listing.Failing(st) || st.LastOutcome == "ok" || st.Hinted != 0 || len(h.listings(1)) < 3 {
				t.Fatalf("listing state %+v after %d reads", st, len(h.listings(1)))
			}
			reads := h.reads()
			for _, id := range h.followed {
				if len(reads[id]) == 0 {
					t.Fatalf("Series %s never read on Rest while the listing failed", id)
				}
			}
			if r := reads[h.followed[2]][0]; r.Sub(t0) < 5*time.Minute {
				t.Fatalf("Series 2 read at %v: a failing listing hinted it", r.Sub(t0))
			}
		})
	}
}

// A bulk upload that flushes page 1: page 2 reaches what the last look saw
// (no overflow); a bigger one flushes page 2 too: the overflow is counted,
// the Series on the pages read are still hinted, and a chapter pushed past
// page 2 is read on Rest.
func TestListingPageTwoAndOverflow(t *testing.T) {
	t.Parallel()
	h := newListHarness(t, listSpec{site: sitesim.MangaDex, perSite: 400, followed: 30, perDay: 2000})
	ctx := context.Background()
	h.drive(t, 2*time.Minute) // the first look
	h.sim.BulkUpload(sitesim.MangaDex, 300, 150, t0.Add(3*time.Minute))
	h.drive(t, 5*time.Minute)
	st, _ := h.st.GetListing(ctx, sitesim.MangaDex)
	if p2 := h.listings(2); len(p2) != 1 || st.Overflows != 0 {
		t.Fatalf("after a 150-chapter bulk: %d page-2 reads, %d overflows", len(p2), st.Overflows)
	}

	// Series 29 (read just before t0, so due again near t0+1h) publishes,
	// then 250 chapters bury it past page 2.
	hidden := h.followed[29]
	h.sim.BulkUpload(sitesim.MangaDex, 29, 1, t0.Add(8*time.Minute))
	h.sim.BulkUpload(sitesim.MangaDex, 7, 250, t0.Add(9*time.Minute))
	h.drive(t, 8*time.Minute)
	st, _ = h.st.GetListing(ctx, sitesim.MangaDex)
	if st.Overflows != 1 {
		t.Fatalf("overflows %d, want 1", st.Overflows)
	}
	bulk := h.reads()[h.followed[7]]
	if len(bulk) == 0 || bulk[len(bulk)-1].Before(t0.Add(9*time.Minute)) {
		t.Fatalf("the bulk-uploaded Series was not read after the overflow: %v", bulk)
	}
	h.drive(t, 30*time.Minute)
	for _, r := range h.reads()[hidden] {
		if r.After(t0.Add(8 * time.Minute)) {
			t.Fatalf("the buried chapter was found at %v: the overflow test proves nothing", r.Sub(t0))
		}
	}
	h.drive(t, time.Hour)
	rs := h.reads()[hidden]
	if len(rs) == 0 || rs[len(rs)-1].Before(t0.Add(8*time.Minute)) {
		t.Fatalf("the buried chapter was never read on Rest")
	}
	if got := getSeries(t, h.st, sitesim.MangaDex, hidden).LatestNumber; got != h.sim.Latest(sitesim.MangaDex, hidden) {
		t.Fatalf("stored %s, the Site shows %s", got, h.sim.Latest(sitesim.MangaDex, hidden))
	}
}

func getSeries(t testing.TB, st *store.Store, site, id string) store.Series {
	t.Helper()
	s, err := st.GetSeries(context.Background(), site, id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A refused listing counts toward the pass's refusal backoff like a
// refused read: with one refused read after it, the Lane backs off.
func TestRefusedListingJoinsTheBackoff(t *testing.T) {
	t.Parallel()
	h := newListHarness(t, listSpec{site: sitesim.MangaPill, perSite: 50, followed: 3})
	ctx := context.Background()
	storetest.SetSeries(ctx, t, h.st, storetest.SeriesSet{Site: "mangapill", IDs: h.followed[:1], CheckedAt: storetest.At(t0.Add(-2 * time.Hour))})
	h.sim.SetListing(sitesim.MangaPill, sitesim.Behavior{Mode: sitesim.Challenge})
	h.sim.SetSeries(sitesim.MangaPill, h.followed[0], sitesim.Behavior{Mode: sitesim.Challenge})
	h.clock.SetActors(1)
	res, pace := h.m.RunPass(ctx, sitesim.MangaPill)
	h.clock.SetActors(0)
	if !res.Listing || res.Refused != 1 || pace != lanes.RefuseBackoff {
		t.Fatalf("pass %+v, pace %v: a refused listing and a refused read did not back off", res, pace)
	}
	l, err := h.st.GetLane(ctx, sitesim.MangaPill)
	if err != nil || !l.Refusing(h.clock.Now()) {
		t.Fatalf("lane %+v %v", l, err)
	}
	if f := h.failureRows(t); f != 0 {
		t.Fatalf("%d failure rows", f)
	}
}

// A paused Lane reads no listing; once resumed it reads it again.
func TestPausedLaneReadsNoListing(t *testing.T) {
	t.Parallel()
	h := newListHarness(t, listSpec{site: sitesim.WeebCentral, perSite: 50, followed: 3})
	ctx := context.Background()
	if _, err := h.st.PauseLane(ctx, sitesim.WeebCentral, t0.Add(30*time.Minute), "test"); err != nil {
		t.Fatal(err)
	}
	h.drive(t, 29*time.Minute)
	if n := len(h.listings(1)); n != 0 {
		t.Fatalf("%d listing reads while paused", n)
	}
	h.drive(t, 10*time.Minute)
	if n := len(h.listings(1)); n == 0 {
		t.Fatal("no listing read after the pause ended")
	}
}
