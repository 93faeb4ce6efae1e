package cli

// DashboardCmd runs the live dashboard.
type DashboardCmd struct{}

// Run starts the dashboard; it returns when the Owner quits.
func (DashboardCmd) Run(d *Deps) error {
	if d.JSON() {
		return usagef("the dashboard has no --json; use `mbctl lanes --json` and friends")
	}
	c, err := d.Client()
	if err != nil {
		return err
	}
	run := d.env.Dashboard
	if run == nil {
		run = runTUI
	}
	return run(d.Context(), c, d)
}
