package cli

import (
	"fmt"
	"time"

	"mangabookmark/backend/safetext"
	"mangabookmark/client"
	"mangabookmark/tui/views"
)

// ForceCmd forces a poll of one Series.
type ForceCmd struct {
	Site     string `arg:"" help:"The Series' Site."`
	SeriesID string `arg:"" name:"series-id" help:"The Series' id on that Site."`
}

// Run asks the server for the Forced Poll.
func (f ForceCmd) Run(d *Deps) error {
	c, err := d.Client()
	if err != nil {
		return err
	}
	at, err := c.Force(d.Context(), f.Site, f.SeriesID)
	if err != nil {
		return err
	}
	if d.JSON() {
		return d.printJSON(client.ForceResponse{ForcePollAt: at})
	}
	_, err = fmt.Fprintf(d.Out(), "Forced a poll of %s/%s at %s; its Lane reads it on the next pass.\n",
		safetext.Show(f.Site), safetext.Show(f.SeriesID), at.UTC().Format(time.RFC3339))
	return err
}

// PauseCmd pauses a Lane.
type PauseCmd struct {
	Site     string `arg:"" help:"The Site whose Lane to pause."`
	Duration string `arg:"" help:"How long: 90m, 2h30m, 1d, 1d12h."`
	Reason   string `help:"Why, shown with the pause."`
}

// Run pauses the Lane and prints it after.
func (p PauseCmd) Run(d *Deps) error {
	dur, err := client.ParseDuration(p.Duration)
	if err != nil {
		return usagef("%v", err)
	}
	c, err := d.Client()
	if err != nil {
		return err
	}
	l, err := c.Pause(d.Context(), p.Site, dur, p.Reason)
	if err != nil {
		return err
	}
	if d.JSON() {
		return d.printJSON(l)
	}
	msg := fmt.Sprintf("Paused %s for %s", safetext.Show(l.Site), views.Human(dur))
	if l.PausedUntil != nil {
		msg += " (until " + l.PausedUntil.UTC().Format("2006-01-02 15:04 UTC") + ")"
	}
	if l.PauseReason != "" {
		msg += ": " + safetext.Show(l.PauseReason)
	}
	_, err = fmt.Fprintln(d.Out(), msg+".")
	return err
}

// ResumeCmd lifts a Lane's pause.
type ResumeCmd struct {
	Site string `arg:"" help:"The Site whose Lane to resume."`
}

// Run resumes the Lane and prints its state.
func (r ResumeCmd) Run(d *Deps) error {
	c, err := d.Client()
	if err != nil {
		return err
	}
	l, err := c.Resume(d.Context(), r.Site)
	if err != nil {
		return err
	}
	if d.JSON() {
		return d.printJSON(l)
	}
	_, err = fmt.Fprintf(d.Out(), "Resumed %s; it is now %s.\n", safetext.Show(l.Site), safetext.Show(l.State))
	return err
}
