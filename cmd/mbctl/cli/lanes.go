package cli

import (
	"fmt"
	"time"

	"mangabookmark/client"
	"mangabookmark/tui/views"
)

// LanesCmd prints every Lane.
type LanesCmd struct{}

// Run prints the Lanes table or JSON.
func (LanesCmd) Run(d *Deps) error {
	c, err := d.Client()
	if err != nil {
		return err
	}
	lanes, err := c.Lanes(d.Context())
	if err != nil {
		return err
	}
	if d.JSON() {
		return d.printJSON(client.LanesResponse{Lanes: lanes})
	}
	now := d.Now()
	t := &table{head: []string{"SITE", "STATE", "SERIES", "DUE", "BEHIND", "GAP", "FAILING", "LAST PASS", "WINDOW"},
		right: map[int]bool{2: true, 3: true, 4: true, 5: true, 6: true}}
	for _, l := range lanes {
		failing := cell{text: fmt.Sprint(l.Failing)}
		if l.Failing > 0 {
			failing.color = ansiFault
		}
		last := cell{text: "never"}
		if l.Pass != nil { // no pass row yet: the pass in flight shows instead
			last = cell{text: views.LivePass(now, *l.Pass), color: ansiCalm}
		}
		if l.LastPass != nil {
			last.text = views.Ago(now, &l.LastPass.FinishedAt) + " " + views.PassCounts(*l.LastPass)
			if views.PassFaulty(*l.LastPass) {
				last.color = ansiFault
			}
		}
		t.add(txt(l.Site), cell{text: l.State, color: stateColor(l.State)}, txt(fmt.Sprint(l.Series)),
			txt(fmt.Sprint(l.Due)), txt(views.Behind(l.BehindByS)), txt(views.Human(time.Duration(l.EffectiveGapS)*time.Second)),
			failing, last, txt(views.Window(now, l)))
	}
	return t.write(d.Out(), d.Color())
}
