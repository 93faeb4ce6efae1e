package cli

import (
	"context"

	"mangabookmark/client"
	"mangabookmark/tui"
)

// runTUI runs the dashboard on the terminal.
func runTUI(ctx context.Context, c *client.Client, d *Deps) error {
	return tui.Run(ctx, tui.Options{Client: c, Now: d.Now, Demo: d.Demo()}, d.NoColor())
}
