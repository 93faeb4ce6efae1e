package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"mangabookmark/backend/safetext"
	"mangabookmark/client"
	"mangabookmark/tui"
)

// Deps is what every command's Run receives (bound with kong.Bind).
type Deps struct {
	env     Env
	globals *Globals
	demo    tui.Demo // the dashboard's demo links (DashboardCmd)
}

// Out is where results go.
func (d *Deps) Out() io.Writer { return d.env.Stdout }

// Now is the injected clock.
func (d *Deps) Now() time.Time { return d.env.Now() }

// JSON reports whether --json was given.
func (d *Deps) JSON() bool { return d.globals.JSON }

// Color reports whether tables may use colour: a terminal and no NO_COLOR.
func (d *Deps) Color() bool { return d.env.Terminal && d.env.Getenv("NO_COLOR") == "" }

// NoColor reports whether the NO_COLOR convention is in force.
func (d *Deps) NoColor() bool { return d.env.Getenv("NO_COLOR") != "" }

// Context is the context commands run in.
func (d *Deps) Context() context.Context { return context.Background() }

// credentials resolves server and token, each from its flag, then the
// environment (MBCTL_SERVER, MBCTL_TOKEN), then the config file, which is
// read only when one of them is still missing.
func (d *Deps) credentials() (server, token string, err error) {
	server, token = d.globals.Server, d.globals.Token
	if server == "" {
		server = d.env.Getenv("MBCTL_SERVER")
	}
	if token == "" {
		token = d.env.Getenv("MBCTL_TOKEN")
	}
	if server == "" || token == "" {
		cfg, _, err := loadConfig(d.env)
		if err != nil {
			return "", "", err
		}
		server = cmp.Or(server, cfg.Server)
		token = cmp.Or(token, cfg.Token)
	}
	return server, token, nil
}

// Client resolves server and token (see credentials) and builds the API
// client. A missing server or token is a usage error.
func (d *Deps) Client() (*client.Client, error) {
	server, token, err := d.credentials()
	if err != nil {
		return nil, err
	}
	if server == "" {
		return nil, usagef("no server given: pass --server URL, set MBCTL_SERVER, or run `mbctl login --server URL --token TOKEN`")
	}
	if token == "" {
		return nil, usagef("no token given: pass --token, set MBCTL_TOKEN, or run `mbctl login --server URL --token TOKEN`")
	}
	c, err := client.New(server, token)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return c, nil
}

// printJSON writes v indented, for scripts.
func (d *Deps) printJSON(v any) error {
	js, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("mbctl: write json: %w", err)
	}
	// encoding/json escapes C0 but passes DEL and C1 (U+0080–U+009F) raw.
	if _, err := d.Out().Write(append(safetext.EscapeJSON(js), '\n')); err != nil {
		return fmt.Errorf("mbctl: write json: %w", err)
	}
	return nil
}
