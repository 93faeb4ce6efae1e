package cli

import "fmt"

// WorksCmd prints how many Works and links exist and how they were made
// (by a shared external id, by two Readers' hand links, one Reader's
// hand links not confirmed yet).
type WorksCmd struct{}

// Run prints the counts or JSON.
func (WorksCmd) Run(d *Deps) error {
	c, err := d.Client()
	if err != nil {
		return err
	}
	w, err := c.AdminWorks(d.Context())
	if err != nil {
		return err
	}
	if d.JSON() {
		return d.printJSON(w)
	}
	t := &table{head: []string{"WORKS", "LINKS", "BY IDS", "BY READERS", "HAND LINKS", "DISSOLVED"}}
	t.add(txt(fmt.Sprint(w.Works)), txt(fmt.Sprint(w.Links)), txt(fmt.Sprint(w.ByID)), txt(fmt.Sprint(w.ByReaders)),
		txt(fmt.Sprint(w.HandLinks)), txt(fmt.Sprint(w.Dissolved)))
	return t.write(d.Out(), d.Color())
}
