package cli

import (
	"mangabookmark/backend/api/client"
	"mangabookmark/tui/views"
)

// NoticesCmd prints the open owner notices.
type NoticesCmd struct{}

// Run prints the notices table or JSON.
func (NoticesCmd) Run(d *Deps) error {
	c, err := d.Client()
	if err != nil {
		return err
	}
	notices, err := c.Notices(d.Context())
	if err != nil {
		return err
	}
	if d.JSON() {
		return d.printJSON(client.NoticesResponse{Notices: notices})
	}
	now := d.Now()
	t := &table{head: []string{"KIND", "SITE", "OPEN FOR", "NOTIFIED"}}
	for _, n := range notices {
		notified := cell{text: views.Ago(now, n.NotifiedAt)}
		if n.NotifiedAt == nil {
			notified = cell{text: "not yet (webhook failing or off)", color: ansiWarn}
		}
		t.add(cell{text: n.Kind, color: ansiFault}, txt(dash(n.Site)), txt(views.Human(now.Sub(n.Since))), notified)
	}
	return t.write(d.Out(), d.Color())
}
