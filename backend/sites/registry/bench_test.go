package registry_test

import (
	"context"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
)

// BenchmarkReadPlain reads Series from each simulated Site through the
// registry's adapter and the plain route over loopback HTTP.
func BenchmarkReadPlain(b *testing.B) {
	sim, err := sitesim.New(sitesim.Config{SeriesPerSite: 10000})
	if err != nil {
		b.Fatal(err)
	}
	if err := sim.Start(); err != nil {
		b.Fatal(err)
	}
	defer sim.Close()
	reg, err := registryFor(sim)
	if err != nil {
		b.Fatal(err)
	}
	route := sitestest.Plain(b, sites.PlainOptions{})
	for _, s := range reg.All() {
		b.Run(s.Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				res := s.Adapter.Read(context.Background(), s, route, sim.SeriesID(s.Name, i%10000))
				if res.Outcome != sites.OK {
					b.Fatalf("%s: %v", res.Outcome, res.Err)
				}
			}
		})
	}
}
