package lanes_test

import (
	"context"
	"sort"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
)

// paceSeries is the Lane of the pace benchmarks: 720 due Series, an
// effective gap of 5s.
const paceSeries = 720

// BenchmarkPaceFidelity drives a Lane of 720 due Series (effective gap 5s)
// through one simulated hour of passes, each read costing 2s of Lane time
// on top of the simulator's real HTTP, and reports the median interval
// between fetch starts over the effective gap (target 1.00 ± 0.02): the
// gap counts from the last fetch, across pass splits, whatever a read
// costs.
func BenchmarkPaceFidelity(b *testing.B) {
	for i := 0; i < b.N; i++ {
		clock := lanestest.NewFakeClock(t0)
		iv, gap := paceRun(b, clock, 2*time.Second, func(m *lanes.Manager, site string) {
			clock.SetActors(1)
			defer clock.SetActors(0)
			for clock.Now().Before(t0.Add(time.Hour)) {
				_, pace := m.RunPass(context.Background(), site)
				_ = clock.Sleep(context.Background(), pace)
			}
		})
		reportPace(b, iv, gap)
	}
}

// BenchmarkPaceFidelityScaled runs the Lane goroutine itself for one
// simulated hour on a clock 120 times wall speed, so every store call,
// HTTP read and timer takes its real time, multiplied 120-fold in Lane
// time: the figure includes the machine's load.
func BenchmarkPaceFidelityScaled(b *testing.B) {
	for i := 0; i < b.N; i++ {
		clock := lanestest.NewScaledClock(t0, 120)
		iv, gap := paceRun(b, clock, 0, func(m *lanes.Manager, _ string) {
			ctx, cancel := context.WithCancel(context.Background())
			m.Start(ctx)
			_ = clock.Sleep(context.Background(), time.Hour)
			cancel()
			m.Stop()
		})
		reportPace(b, iv, gap)
	}
}

// paceRun seeds the Lane, runs drive and returns the sorted intervals
// between fetch starts (Lane time) and the effective gap.
func paceRun(b *testing.B, clock lanes.Clock, readCost time.Duration, drive func(*lanes.Manager, string)) ([]float64, time.Duration) {
	b.Helper()
	sim := simtest.Start(b, sitesim.Config{SeriesPerSite: paceSeries, Now: clock.Now})
	reg := simtest.Registry(b, sim)
	st := fastStore(b)
	const site = sitesim.MangaPill
	for _, id := range sim.SeriesIDs(site, paceSeries) {
		if _, err := st.EnsureSeries(context.Background(), site, id, sim.SeriesURL(site, id)); err != nil {
			b.Fatal(err)
		}
	}
	route := &clockedRoute{Fetcher: sitestest.Plain(b, sites.PlainOptions{}), clock: clock, cost: readCost}
	m, err := lanes.New(lanes.Config{Store: st, Sites: reg, Plain: route, Clock: clock, Enabled: true})
	if err != nil {
		b.Fatal(err)
	}
	drive(m, site)
	route.mu.Lock()
	defer route.mu.Unlock()
	var iv []float64
	for j := 1; j < len(route.at); j++ {
		iv = append(iv, float64(route.at[j].Sub(route.at[j-1])))
	}
	if len(iv) < 100 {
		b.Fatalf("only %d reads in the simulated hour", len(iv)+1)
	}
	sort.Float64s(iv)
	gap, _ := lanes.EffectiveGap(reg.Get(site), paceSeries)
	return iv, gap
}

func reportPace(b *testing.B, iv []float64, gap time.Duration) {
	b.ReportMetric(iv[len(iv)/2]/float64(gap), "pace_ratio")
	b.ReportMetric(iv[len(iv)*9/10]/float64(gap), "pace_p90_ratio")
	b.ReportMetric(float64(len(iv)+1), "reads/h")
}

// clockedRoute notes the Lane-clock time each fetch starts, and makes each
// read cost cost of Lane time.
type clockedRoute struct {
	sites.Fetcher
	clock lanes.Clock
	cost  time.Duration
	mu    sync.Mutex
	at    []time.Time
}

func (c *clockedRoute) Fetch(ctx context.Context, req sites.Request) (*sites.Response, error) {
	c.mu.Lock()
	c.at = append(c.at, c.clock.Now())
	c.mu.Unlock()
	if err := c.clock.Sleep(ctx, c.cost); err != nil {
		return nil, err
	}
	return c.Fetcher.Fetch(ctx, req)
}
