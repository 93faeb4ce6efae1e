package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"mangabookmark/backend/sitesim"
)

// SimCmd runs the Site simulator: the six Sites on consecutive loopback
// ports from --listen, each with --series generated Series, until SIGINT.
// It prints the SITE_ORIGINS value that points a backend at it.
type SimCmd struct {
	Listen   string        `help:"Address of the first Site; the other five take the next ports." default:"127.0.0.1:18080"`
	Series   int           `help:"Series per Site." default:"100"`
	NewEvery time.Duration `help:"Publish a new chapter on every Series this often (0: never)." default:"0s" name:"new-every"`
	Set      []string      `help:"Script behaviour: site=mode for a whole Site, site:N=mode for its Series number N (modes: ${sim_modes})." placeholder:"SITE[:N]=MODE"`
}

// Run serves until interrupted.
func (c *SimCmd) Run() error {
	if c.Series <= 0 {
		return fmt.Errorf("sim: --series must be positive, got %d", c.Series)
	}
	sim, err := sitesim.New(sitesim.Config{SeriesPerSite: c.Series})
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	if c.NewEvery > 0 {
		for _, name := range sitesim.SiteNames {
			sim.SetSite(name, sitesim.Behavior{NewEvery: c.NewEvery})
		}
	}
	for _, spec := range c.Set {
		if err := applySet(sim, spec, c.NewEvery); err != nil {
			return err
		}
	}
	if err := sim.StartOn(c.Listen); err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	defer sim.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Printf("SITE_ORIGINS=%s\n", sim.OriginsValue())
	for _, name := range sitesim.SiteNames {
		ids := sim.SeriesIDs(name, 1)
		if len(ids) > 0 {
			fmt.Printf("  %-12s %s\n", name, sim.SeriesURL(name, ids[0]))
		}
	}
	fmt.Println("serving; interrupt to stop")
	<-ctx.Done()
	return nil
}

// simModes lists the simulator's modes for --set's help.
func simModes() string {
	var names []string
	for _, m := range sitesim.Modes() {
		names = append(names, m.String())
	}
	return strings.Join(names, ", ")
}

// applySet scripts one --set entry.
func applySet(sim *sitesim.Sim, spec string, every time.Duration) error {
	target, modeName, ok := strings.Cut(spec, "=")
	mode, known := sitesim.ParseMode(modeName)
	if !ok || !known {
		return fmt.Errorf("sim: --set %q: want site=mode or site:N=mode with a known mode", spec)
	}
	site, num, one := strings.Cut(target, ":")
	if !slices.Contains(sitesim.SiteNames, site) {
		return fmt.Errorf("sim: --set %q: unknown Site %q (known: %s)", spec, site, strings.Join(sitesim.SiteNames, ", "))
	}
	b := sitesim.Behavior{Mode: mode, NewEvery: every, Delay: 5 * time.Second}
	if !one {
		sim.SetSite(site, b)
		return nil
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || n >= sim.SeriesPerSite() {
		return fmt.Errorf("sim: --set %q: Series number must be 0..%d", spec, sim.SeriesPerSite()-1)
	}
	sim.SetSeries(site, sim.SeriesID(site, n), b)
	return nil
}
