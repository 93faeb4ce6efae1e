package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
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
}

// Run serves until interrupted.
func (c *SimCmd) Run() error {
	if c.Series <= 0 {
		return fmt.Errorf("sim: --series must be positive, got %d", c.Series)
	}
	sim := sitesim.New(sitesim.Config{SeriesPerSite: c.Series})
	if c.NewEvery > 0 {
		for _, name := range sitesim.SiteNames {
			sim.SetSite(name, sitesim.Behavior{NewEvery: c.NewEvery})
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
