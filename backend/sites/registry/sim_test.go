package registry_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/sitesim"
)

// startSim runs a simulator and a registry pointed at it.
func startSim(t *testing.T, n int) (*sitesim.Sim, *sites.Registry) {
	t.Helper()
	sim := sitesim.New(sitesim.Config{SeriesPerSite: n})
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Close)
	reg, err := registry.FromEnv(sim.OriginsValue())
	if err != nil {
		t.Fatal(err)
	}
	return sim, reg
}

func read(t *testing.T, reg *sites.Registry, route sites.Fetcher, url string) sites.Result {
	t.Helper()
	ref, err := reg.Canonicalize(url)
	if err != nil {
		t.Fatalf("canonicalize %s: %v", url, err)
	}
	s := reg.Get(ref.Site)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return s.Adapter.Read(ctx, s, route, ref.SeriesID)
}

// One Series from every Site, through canonicalisation, the registry and
// the plain route over real HTTP, matches what the simulator shows. Series
// 5, 7 and 3 carry a half chapter, a Special row, and (MangaDex) an
// external chapter; all must read to the simulator's Latest.
func TestReadEverySite(t *testing.T) {
	t.Parallel()
	sim, reg := startSim(t, 20)
	route := sites.NewPlain(sites.PlainOptions{})
	for _, s := range reg.All() {
		for _, i := range []int{0, 3, 5, 7, 18} {
			id := sim.SeriesID(s.Name, i)
			res := read(t, reg, route, sim.SeriesURL(s.Name, id))
			if res.Outcome != sites.OK {
				t.Errorf("%s %s: outcome %s (%v)", s.Name, id, res.Outcome, res.Err)
				continue
			}
			f := res.Facts
			if f.Latest == nil || f.Latest.Number != sim.Latest(s.Name, id) {
				t.Errorf("%s %s: latest %+v, want number %s", s.Name, id, f.Latest, sim.Latest(s.Name, id))
				continue
			}
			if f.Title != sim.Title(s.Name, id) {
				t.Errorf("%s %s: title %q, want %q", s.Name, id, f.Title, sim.Title(s.Name, id))
			}
			if f.Latest.URL == "" || f.CoverURL == "" {
				t.Errorf("%s %s: chapter URL %q, cover %q", s.Name, id, f.Latest.URL, f.CoverURL)
			}
		}
	}
}
