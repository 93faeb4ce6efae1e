package cli

import (
	"context"

	"mangabookmark/backend/api/client"
)

// runTUI is replaced once the tui package lands.
func runTUI(ctx context.Context, c *client.Client, d *Deps) error {
	return usagef("the dashboard is not built into this mbctl yet")
}
