package cli

import (
	"fmt"

	"mangabookmark/backend/safetext"
)

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

// OffsetCmd sets a Work member's shared offset, for every Reader.
type OffsetCmd struct {
	Work     int64  `arg:"" help:"The Work's number (as /works/N shows it)."`
	Site     string `arg:"" help:"The member's Site."`
	SeriesID string `arg:"" name:"series-id" help:"The member's id on that Site."`
	Offset   string `arg:"" help:"The number added to the member's chapters for every Reader, -100000 to 100000 (e.g. 0.5; a negative one after --: mbctl offset 12 comix abc -- -100). Every Reader's own offset on it is cleared." placeholder:"OFFSET"`
}

// Run sets the shared offset and prints it.
func (o OffsetCmd) Run(d *Deps) error {
	c, err := d.Client()
	if err != nil {
		return err
	}
	got, err := c.SetSharedMemberOffset(d.Context(), o.Work, o.Site, o.SeriesID, o.Offset)
	if err != nil {
		return err
	}
	if d.JSON() {
		return d.printJSON(got)
	}
	_, err = fmt.Fprintf(d.Out(), "Work %d: %s/%s now has the shared offset %s, for every Reader; their own offsets on it are cleared.\n",
		got.WorkID, safetext.Show(got.Site), safetext.Show(got.SeriesID), safetext.Show(got.Offset))
	return err
}

// UnlinkCmd takes a member out of a Work for every Reader.
type UnlinkCmd struct {
	Work     int64  `arg:"" help:"The Work's number (as /works/N shows it)."`
	Site     string `arg:"" help:"The member's Site."`
	SeriesID string `arg:"" name:"series-id" help:"The member's id on that Site."`
}

// Run makes the shared unlink and says so.
func (u UnlinkCmd) Run(d *Deps) error {
	c, err := d.Client()
	if err != nil {
		return err
	}
	got, err := c.UnlinkSharedMember(d.Context(), u.Work, u.Site, u.SeriesID)
	if err != nil {
		return err
	}
	if d.JSON() {
		return d.printJSON(got)
	}
	_, err = fmt.Fprintf(d.Out(), "Work %d: %s/%s is unlinked for every Reader; ids never link it back to this Work.\n",
		got.WorkID, safetext.Show(got.Site), safetext.Show(got.SeriesID))
	return err
}
