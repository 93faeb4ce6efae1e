package cli

import (
	"fmt"

	"mangabookmark/tui/views"
)

// NoticesCmd prints the open owner notices and the Readers' notice
// delivery health.
type NoticesCmd struct{}

// Run prints the notices tables or JSON.
func (NoticesCmd) Run(d *Deps) error {
	c, err := d.Client()
	if err != nil {
		return err
	}
	rep, err := c.NoticesReport(d.Context())
	if err != nil {
		return err
	}
	if d.JSON() {
		return d.printJSON(rep)
	}
	now := d.Now()
	t := &table{head: []string{"KIND", "SITE", "OPEN FOR", "NOTIFIED"}}
	for _, n := range rep.Notices {
		notified := cell{text: views.Ago(now, n.NotifiedAt)}
		if n.NotifiedAt == nil {
			notified = cell{text: "not yet (webhook failing or off)", color: ansiWarn}
		}
		t.add(cell{text: n.Kind, color: ansiFault}, txt(dash(n.Site)), txt(views.Human(now.Sub(n.Since))), notified)
	}
	if err := t.write(d.Out(), d.Color()); err != nil {
		return err
	}
	if tr := rep.Trackers; tr != nil {
		if _, err := fmt.Fprintf(d.Out(), "\nTrackers: %d ok, %d reconnect, %d failing, %d off\n", tr.OK, tr.Reconnect, tr.Failing, tr.Off); err != nil {
			return err
		}
	}
	if ps := rep.PhoneSync; ps != nil {
		if _, err := fmt.Fprintf(d.Out(), "\nPhone sync: %d Readers syncing, %d uploads today, %s stored, %d Progress moved by sync\n",
			ps.ReadersSyncing, ps.UploadsToday, fmt.Sprintf("%.1f MiB", float64(ps.BytesStored)/(1<<20)), ps.ProgressMoved); err != nil {
			return err
		}
	}
	if rep.Readers == nil {
		return nil
	}
	r := rep.Readers
	if _, err := fmt.Fprintf(d.Out(), "\nReader notices: %d owed, %d sent in 24h\n", r.Owed, r.Sent24h); err != nil {
		return err
	}
	if len(r.FailingOutlets) == 0 {
		_, err := fmt.Fprintln(d.Out(), "no Reader outlet is failing")
		return err
	}
	ft := &table{head: []string{"OUTLET", "FAILING FOR READERS"}}
	for _, o := range r.FailingOutlets {
		ft.add(cell{text: o.Outlet, color: ansiFault}, txt(fmt.Sprint(o.Readers)))
	}
	return ft.write(d.Out(), d.Color())
}
