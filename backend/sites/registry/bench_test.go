package registry_test

import (
	"context"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
)

// BenchmarkReadPlain reads Series from each simulated Site through the
// registry's adapter and the plain route over loopback HTTP.
func BenchmarkReadPlain(b *testing.B) {
	sim := simtest.Start(b, sitesim.Config{SeriesPerSite: 10000})
	reg := simtest.Registry(b, sim)
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
