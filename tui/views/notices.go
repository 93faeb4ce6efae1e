package views

import "mangabookmark/client"

// Notices renders the open owner notices.
func Notices(f Frame, notices []client.Notice) string {
	s := f.S
	if len(notices) == 0 {
		return block([]string{s.Calm.Render("  no open owner notices")}, f.Width, f.Height)
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
	return block(f.table(cols, rows, -1, 0, max(0, f.Height-1)), f.Width, f.Height)
}
