package cli

import (
	"fmt"

	"mangabookmark/client"
	"mangabookmark/tui/views"
)

// PassesCmd prints a Lane's recent passes.
type PassesCmd struct {
	Site  string `arg:"" help:"The Site whose Lane to show."`
	Limit int    `default:"20" help:"How many passes (1-1000)."`
}

// Run prints the passes table or JSON.
func (p PassesCmd) Run(d *Deps) error {
	if p.Limit < 1 || p.Limit > 1000 {
		return usagef("--limit must be from 1 to 1000, not %d", p.Limit)
	}
	c, err := d.Client()
	if err != nil {
		return err
	}
	passes, err := c.Passes(d.Context(), p.Site, p.Limit)
	if err != nil {
		return err
	}
	if d.JSON() {
		return d.printJSON(client.PassesResponse{Passes: passes})
	}
	now := d.Now()
	t := &table{head: []string{"STARTED", "TOOK", "DUE", "CHECKED", "OK", "NEW", "NF", "NC", "UNF", "ERR", "REF", "UNR", "BEHIND", "SKIP"},
		right: map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true, 10: true, 11: true, 12: true}}
	num := func(n int, fault bool) cell {
		cl := txt(fmt.Sprint(n))
		if fault && n > 0 {
			cl.color = ansiFault
		}
		return cl
	}
	for _, ps := range passes {
		skip := cell{text: dash(ps.Skip)}
		if ps.Skip != "" {
			skip.color = ansiFault
		}
		t.add(txt(views.Ago(now, &ps.StartedAt)), txt(views.Human(ps.FinishedAt.Sub(ps.StartedAt))), num(ps.Due, false),
			num(ps.Checked, false), num(ps.OK, false), num(ps.New, false), num(ps.NotFound, true),
			num(ps.NoChapter, true), num(ps.Unfetchable, true), num(ps.Errors, true), num(ps.Refused, true),
			num(ps.Unreachable, true), txt(views.Behind(ps.BehindByS)), skip)
	}
	return t.write(d.Out(), d.Color())
}
