package views

import (
	"fmt"

	"mangabookmark/client"
)

// Notices renders the open owner notices, under one line of the Works'
// counts (works nil: the server has none).
func Notices(f Frame, notices []client.Notice, works *client.AdminWorks) string {
	s := f.S
	var head []string
	if works != nil {
		head = []string{s.Calm.Render(fmt.Sprintf("  Works %d · links %d: %d by ids, %d by Readers · %d hand links · %d dissolved",
			works.Works, works.Links, works.ByID, works.ByReaders, works.HandLinks, works.Dissolved)), ""}
	}
	if len(notices) == 0 {
		return block(append(head, s.Calm.Render("  no open owner notices")), f.Width, f.Height)
	}
	cols := []Column{{Title: "KIND", Width: 17}, {Title: "SITE", Width: 12}, {Title: "OPEN FOR", Width: 9, Right: true},
		{Title: "NOTIFIED", Flex: true}}
	rows := make([][]Cell, len(notices))
	for i, n := range notices {
		site := n.Site
		if site == "" {
			site = "(all)"
		}
		notified := Cell{Text: Ago(f.Now, n.NotifiedAt), Paint: PaintDim}
		if n.NotifiedAt == nil {
			notified = Cell{Text: "not yet: webhook failing or off", Paint: PaintHold}
		}
		rows[i] = []Cell{{Text: n.Kind, Paint: PaintFault}, {Text: site}, {Text: Human(f.Now.Sub(n.Since))}, notified}
	}
	return block(append(head, f.table(cols, rows, -1, 0, max(0, f.Height-1-len(head)))...), f.Width, f.Height)
}
