package views

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Column is one table column. Width 0 with Flex takes the space left.
type Column struct {
	Title string
	Width int
	Right bool
	Flex  bool
}

// Cell is one table cell: plain text and the style it is drawn in.
type Cell struct {
	Text  string
	Style *lipgloss.Style
}

// table renders a header and the rows [offset, offset+capacity) with a
// two-cell gutter marking the selected row ("▸"), so the selection shows
// even without colour.
func (f Frame) table(cols []Column, rows [][]Cell, sel, offset, capacity int) []string {
	widths := make([]int, len(cols))
	used := 2
	flex := -1
	for i, c := range cols {
		widths[i] = c.Width
		used += c.Width + 1
		if c.Flex {
			flex = i
		}
	}
	if flex >= 0 {
		widths[flex] += max(0, f.Width-used)
	}
	pad := func(text string, i int) string {
		w := widths[i]
		t := text
		if ansi.StringWidth(t) > w {
			t = ansi.Truncate(t, w, "…")
		}
		gap := strings.Repeat(" ", max(0, w-ansi.StringWidth(t)))
		if cols[i].Right {
			return gap + t
		}
		return t + gap
	}
	var head strings.Builder
	head.WriteString("  ")
	for i, c := range cols {
		head.WriteString(pad(c.Title, i))
		if i < len(cols)-1 {
			head.WriteByte(' ')
		}
	}
	lines := []string{f.S.Header.Render(head.String())}
	end := min(len(rows), offset+capacity)
	for r := offset; r < end; r++ {
		selected := r == sel
		var b strings.Builder
		if selected {
			b.WriteString(f.S.Title.Render("▸ "))
		} else {
			b.WriteString("  ")
		}
		for i, cl := range rows[r] {
			st := f.S.Row
			if cl.Style != nil {
				st = *cl.Style
			}
			if selected {
				st = st.Background(f.S.Selected.GetBackground()).Bold(true)
			}
			b.WriteString(st.Render(pad(cl.Text, i)))
			if i < len(cols)-1 {
				if selected {
					b.WriteString(f.S.Selected.Render(" "))
				} else {
					b.WriteByte(' ')
				}
			}
		}
		lines = append(lines, b.String())
	}
	return lines
}

func sty(s lipgloss.Style) *lipgloss.Style { return &s }
