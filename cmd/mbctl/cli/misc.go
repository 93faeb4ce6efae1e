package cli

import (
	"fmt"

	"mangabookmark/client"
)

// VersionCmd prints mbctl's version.
type VersionCmd struct{}

// Run prints the version.
func (VersionCmd) Run(d *Deps) error {
	if d.JSON() {
		return d.printJSON(map[string]string{"version": d.env.Version})
	}
	_, err := fmt.Fprintf(d.Out(), "mbctl %s\n", d.env.Version)
	return err
}

// LoginCmd checks a server and an Owner token and saves them.
type LoginCmd struct {
	NoCheck bool `help:"Save without asking the server first."`
}

// Run checks the pair against the admin API and writes the config file.
func (l LoginCmd) Run(d *Deps) error {
	if d.globals.Server == "" || d.globals.Token == "" {
		return usagef("login needs both --server URL and --token TOKEN")
	}
	c, err := client.New(d.globals.Server, d.globals.Token)
	if err != nil {
		return usagef("%v", err)
	}
	if !l.NoCheck {
		if _, err := c.Lanes(d.Context()); err != nil {
			return err
		}
	}
	path, err := saveConfig(d.env, config{Server: c.Server(), Token: d.globals.Token})
	if err != nil {
		return err
	}
	if d.JSON() {
		return d.printJSON(map[string]string{"server": c.Server(), "config": path})
	}
	_, err = fmt.Fprintf(d.Out(), "Saved %s for %s.\n", path, c.Server())
	return err
}

// HealthCmd asks the server's /healthz, which needs no token: exit 0 when
// the server and its database answer, 1 when the database does not, 3 when
// the server cannot be reached. Container health checks use it.
type HealthCmd struct{}

// Run checks /healthz.
func (HealthCmd) Run(d *Deps) error {
	server, _, err := d.credentials()
	if err != nil {
		return err
	}
	if server == "" {
		return usagef("no server given: pass --server URL or set MBCTL_SERVER")
	}
	c, err := client.New(server, "")
	if err != nil {
		return usagef("%v", err)
	}
	if err := c.Healthz(d.Context()); err != nil {
		return err
	}
	if d.JSON() {
		return d.printJSON(map[string]bool{"ok": true})
	}
	_, err = fmt.Fprintln(d.Out(), "ok")
	return err
}
