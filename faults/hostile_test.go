package faults

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
	"mangabookmark/client"
)

// hostileSeries is one Series scripted to misbehave and the outcome word
// its read must end in ("refused" has no failure row; it shows in the
// pass counts).
type hostileSeries struct {
	site    string
	mode    sitesim.Mode
	outcome string
}

// maxRSSKB bounds the backend's resident memory while Sites misbehave.
const maxRSSKB = 150 << 10

// TestHostileSites is scenario 3. The short form keeps three modes on one
// Site; the long form runs every hostile mode, then a Site that challenges
// every page.
func TestHostileSites(t *testing.T) {
	needSuite(t)
	t.Parallel()
	hostile := []hostileSeries{
		{sitesim.MangaPill, sitesim.Endless, "unfetchable"},
		{sitesim.MangaPill, sitesim.HugeLength, "unfetchable"},
		{sitesim.MangaPill, sitesim.RedirectLoop, "unfetchable"},
	}
	if longForm() {
		hostile = append(hostile,
			hostileSeries{sitesim.MangaPill, sitesim.Malformed, "no_chapter"},
			hostileSeries{sitesim.MangaPill, sitesim.Challenge, "refused"},
			hostileSeries{sitesim.MangaDex, sitesim.Hang, "errors"},
			hostileSeries{sitesim.MangaDex, sitesim.Malformed, "unfetchable"},
			hostileSeries{sitesim.MangaDex, sitesim.Oversized, "unfetchable"},
		)
	}
	d := newDeployment(t, "")
	// Bookmark the hostile Series in order, so each Site reads them in
	// that order, then script each one.
	perSite := map[string][]hostileSeries{}
	for _, h := range hostile {
		perSite[h.site] = append(perSite[h.site], h)
	}
	idOf := map[int]string{}
	for site, hs := range perSite {
		ids := d.seed(site, len(hs))
		for i, h := range hs {
			d.sim.SetSeries(site, ids[i], sitesim.Behavior{Mode: h.mode})
			for k := range hostile {
				if hostile[k] == h {
					idOf[k] = ids[i]
				}
			}
		}
	}
	healthy := sitesim.WeebCentral
	healthyIDs := d.seed(healthy, 4)

	b := d.serve("hostile", nil)
	var peak atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			if !b.alive() {
				return
			}
			if kb := b.rssKB(); kb > peak.Load() {
				peak.Store(kb)
			}
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
	}()
	defer func() { close(stop); wg.Wait() }()

	sitesUsed := []string{healthy}
	for s := range perSite {
		sitesUsed = append(sitesUsed, s)
	}
	// Every Lane's first pass reads all its Series, one Gap (10 s) apart;
	// the hang costs the plain route's 30 s timeout.
	within := 60 * time.Second
	if longForm() {
		within = 120 * time.Second
	}
	for _, s := range sitesUsed {
		if !eventually(within, 250*time.Millisecond, func() bool { return d.passes(s, "") >= 1 }) {
			t.Fatalf("%s: no finished pass within %v", s, within)
		}
	}
	if !b.alive() {
		t.Fatal("the backend died")
	}

	oc := d.client(d.owner, b)
	ctx := context.Background()
	for site := range perSite {
		fr, err := oc.Failing(ctx, client.FailingFilter{Site: site})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range fr.Failing {
			got[f.SeriesID] = f.Outcome
		}
		ps, err := oc.Passes(ctx, site, 10)
		if err != nil {
			t.Fatal(err)
		}
		refused := 0
		for _, p := range ps {
			refused += p.Refused
		}
		for k, h := range hostile {
			if h.site != site {
				continue
			}
			id := idOf[k]
			if h.outcome == "refused" {
				if _, ok := got[id]; ok || refused < 1 {
					t.Errorf("%s %s (%v): failure row %q, refused in passes %d; want no row and a refused count", site, id, h.mode, got[id], refused)
				}
				continue
			}
			if got[id] != h.outcome {
				t.Errorf("%s %s (%v): outcome %q, want %q", site, id, h.mode, got[id], h.outcome)
			}
		}
	}

	// The healthy Lane kept its pace while the others misbehaved: its
	// reads are about one Gap apart, none stalled behind a hostile Site.
	var stamps []time.Time
	rows, err := d.pool.Query(ctx, `SELECT latest_checked_at FROM series WHERE site = $1 AND series_id = ANY($2) AND latest_number IS NOT NULL`, healthy, healthyIDs)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var ts time.Time
		if err := rows.Scan(&ts); err != nil {
			t.Fatal(err)
		}
		stamps = append(stamps, ts)
	}
	rows.Close()
	if len(stamps) != len(healthyIDs) {
		t.Fatalf("healthy Site: %d of %d Series read", len(stamps), len(healthyIDs))
	}
	sort.Slice(stamps, func(i, j int) bool { return stamps[i].Before(stamps[j]) })
	for i := 1; i < len(stamps); i++ {
		if gap := stamps[i].Sub(stamps[i-1]); gap < 9*time.Second || gap > 20*time.Second {
			t.Errorf("healthy Site: reads %d and %d are %v apart, want about the 10 s Gap", i-1, i, gap)
		}
	}

	if longForm() {
		// A Site that challenges every page: two refusals in one pass park
		// the Lane (state refusing) and it stops reading.
		site := sitesim.MangaDex
		d.sim.SetSite(site, sitesim.Behavior{Mode: sitesim.Challenge})
		for k, h := range hostile {
			if h.site == site {
				d.sim.SetSeries(site, idOf[k], sitesim.Behavior{Mode: sitesim.Challenge})
				if _, err := oc.Force(ctx, site, idOf[k]); err != nil {
					t.Fatal(err)
				}
			}
		}
		if !eventually(60*time.Second, 250*time.Millisecond, func() bool {
			ls, err := oc.Lanes(ctx)
			if err != nil {
				return false
			}
			for _, l := range ls {
				if l.Site == site {
					return l.State == client.StateRefusing
				}
			}
			return false
		}) {
			t.Errorf("%s: challenged on every page, the Lane never turned refusing", site)
		}
		hits := d.sim.Hits(site)
		time.Sleep(12 * time.Second) // more than a Gap: a parked Lane reads nothing
		if n := d.sim.Hits(site) - hits; n != 0 {
			t.Errorf("%s: the refusing Lane still made %d requests", site, n)
		}
	}

	if p := peak.Load(); p == 0 || p > maxRSSKB {
		t.Errorf("backend VmRSS peaked at %d KiB, want under %d KiB", p, maxRSSKB)
	} else {
		t.Logf("backend VmRSS peak %d KiB", p)
	}
}
