package main

import (
	"context"
	"fmt"
	"os"
	"text/tabwriter"

	"mangabookmark/backend/store"
)

// MigrateCmd applies or lists the embedded migrations.
type MigrateCmd struct {
	Action string `arg:"" optional:"" enum:"up,status" default:"up" help:"up (apply pending migrations) or status (list them)."`
}

// Run applies or lists migrations.
func (m MigrateCmd) Run(ctx context.Context, env *Env) error {
	cfg, err := env.Config()
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer st.Close()
	if m.Action == "up" {
		if err := st.Migrate(ctx); err != nil {
			return err
		}
		env.Log.Info("migrations applied")
	}
	list, err := st.MigrationStatuses(ctx)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "VERSION\tSTATE\tFILE")
	for _, s := range list {
		state := "pending"
		if s.Applied {
			state = "applied"
		}
		fmt.Fprintf(w, "%04d\t%s\t%s\n", s.Version, state, s.Source)
	}
	return w.Flush()
}
