package cli

import (
	"os"
	"strings"

	"mangabookmark/client"
	"mangabookmark/tui"
)

// DashboardCmd runs the live dashboard.
type DashboardCmd struct {
	LoginLinkFile string `name:"login-link-file" type:"path" placeholder:"FILE" help:"The demo's one-time login link file (make demo writes .data/demo/login-link): the dashboard shows the link and the library's URL above every screen, and c copies the link."`
}

// Run starts the dashboard; it returns when the Owner quits.
func (c DashboardCmd) Run(d *Deps) error {
	if d.JSON() {
		return usagef("the dashboard has no --json; use `mbctl lanes --json` and friends")
	}
	cl, err := d.Client()
	if err != nil {
		return err
	}
	if c.LoginLinkFile != "" {
		demo, err := demoLinks(cl, c.LoginLinkFile)
		if err != nil {
			return err
		}
		d.demo = demo
	}
	run := d.env.Dashboard
	if run == nil {
		run = runTUI
	}
	return run(d.Context(), cl, d)
}

// demoLinks reads the demo's login link file: one path (/login/once/...)
// on the server, or a whole URL.
func demoLinks(cl *client.Client, path string) (tui.Demo, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return tui.Demo{}, usagef("--login-link-file: %v", err)
	}
	link := strings.TrimSpace(string(b))
	base := strings.TrimRight(cl.Server(), "/")
	switch {
	case strings.HasPrefix(link, "/login/once/") && !strings.ContainsAny(link, " \t\r\n\x1b"):
		link = base + link
	case strings.HasPrefix(link, base+"/login/once/") && !strings.ContainsAny(link, " \t\r\n\x1b"):
	default:
		return tui.Demo{}, usagef("--login-link-file %s holds no login link (/login/once/...) on %s", path, base)
	}
	return tui.Demo{LoginURL: link, WebURL: base + "/"}, nil
}

// Demo is what --login-link-file gave the dashboard (zero without it).
func (d *Deps) Demo() tui.Demo { return d.demo }
