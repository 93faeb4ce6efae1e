package cli

import (
	"fmt"
	"slices"
	"strings"

	"mangabookmark/client"
	"mangabookmark/tui/views"
)

// FailingCmd prints the failing worklist.
type FailingCmd struct {
	Site    string `help:"Only this Site."`
	Outcome string `help:"Only this outcome: ${outcomes}."`
	Limit   int    `default:"1000" help:"At most this many rows (1-10000)."`
}

// Run prints the worklist table or JSON.
func (f FailingCmd) Run(d *Deps) error {
	if f.Outcome != "" && !slices.Contains(client.Outcomes, f.Outcome) {
		return usagef("--outcome must be one of %s, not %q", strings.Join(client.Outcomes, ", "), f.Outcome)
	}
	if f.Limit < 1 || f.Limit > 10000 {
		return usagef("--limit must be from 1 to 10000, not %d", f.Limit)
	}
	c, err := d.Client()
	if err != nil {
		return err
	}
	res, err := c.Failing(d.Context(), client.FailingFilter{Site: f.Site, Outcome: f.Outcome, Limit: f.Limit})
	if err != nil {
		return err
	}
	if d.JSON() {
		return d.printJSON(res)
	}
	now := d.Now()
	t := &table{head: []string{"SITE", "SERIES", "OUTCOME", "FAILING", "CHECKED", "TITLE"}, right: map[int]bool{3: true}}
	for _, r := range res.Failing {
		t.add(txt(r.Site), txt(r.SeriesID), cell{text: r.Outcome, color: ansiFault}, txt(views.Human(now.Sub(r.FailingSince))),
			txt(views.Ago(now, r.LatestCheckedAt)), txt(r.Title))
	}
	if err := t.write(d.Out(), d.Color()); err != nil {
		return err
	}
	if len(res.Failing) < res.Total {
		_, err = fmt.Fprintf(d.Out(), "showing the oldest %d of %d failing; narrow with --site/--outcome or raise --limit\n", len(res.Failing), res.Total)
	}
	return err
}
