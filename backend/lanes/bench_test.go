package lanes_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store/storetest"
)

// The per-Poll overhead of a Lane (stamp, fetch from the local simulator,
// parse, outcome write, amortised pass bookkeeping) against a bare GET and
// parse of the same pages. Gap sleeps take no time (fake clock).

const benchSeries = 500

func benchSetup(b *testing.B) (*sitesim.Sim, *sites.Registry, sites.Fetcher) {
	b.Helper()
	sim, reg := startSim(b, sitesim.Config{SeriesPerSite: benchSeries})
	return sim, reg, sitestest.Plain(b, sites.PlainOptions{})
}

func BenchmarkLanePoll(b *testing.B) {
	sim, reg, plain := benchSetup(b)
	st := fastStore(b)
	clock := lanestest.NewFakeClock(t0)
	clock.SetActors(1)
	m, err := lanes.New(lanes.Config{Store: st, Sites: reg, Plain: plain, Clock: clock, Enabled: true, PassSpan: 24 * time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	const site = sitesim.MangaPill
	for _, id := range sim.SeriesIDs(site, benchSeries) {
		if _, err := st.EnsureSeries(ctx, site, id, sim.SeriesURL(site, id)); err != nil {
			b.Fatal(err)
		}
	}
	// A warm-up pass stores every cover, so no heal runs inside the timing.
	if res, _ := m.RunPass(ctx, site); res.OK != benchSeries {
		b.Fatalf("warm-up pass %+v", res)
	}
	m.WaitCovers()
	b.ResetTimer()
	polls := 0
	for polls < b.N {
		b.StopTimer()
		storetest.SetSeries(ctx, b, st, storetest.SeriesSet{Unchecked: true})
		b.StartTimer()
		res, _ := m.RunPass(ctx, site)
		if res.OK != benchSeries {
			b.Fatalf("pass %+v", res)
		}
		polls += res.Checked
	}
	b.StopTimer()
	m.WaitCovers()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(polls), "ns/poll")
}

func BenchmarkBareGetParse(b *testing.B) {
	sim, reg, plain := benchSetup(b)
	s := reg.Get(sitesim.MangaPill)
	ids := sim.SeriesIDs(sitesim.MangaPill, benchSeries)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := s.Adapter.Read(ctx, s, plain, ids[i%len(ids)]); r.Outcome != sites.OK {
			b.Fatalf("read %+v", r)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/poll")
}
