// Package simtest starts the Site simulator for a test: one call instead
// of the New, Start, Cleanup and registry preamble every test wrote.
package simtest

import (
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/sitesim"
)

// Start runs a simulator of cfg on loopback ports until the test ends.
func Start(tb testing.TB, cfg sitesim.Config) *sitesim.Sim {
	tb.Helper()
	sim, err := sitesim.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	if err := sim.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(sim.Close)
	return sim
}

// Registry is the real registry pointed at sim, through the SITE_ORIGINS
// form the sim command prints.
func Registry(tb testing.TB, sim *sitesim.Sim) *sites.Registry {
	tb.Helper()
	reg, err := registry.FromEnv(sim.OriginsValue())
	if err != nil {
		tb.Fatal(err)
	}
	return reg
}
