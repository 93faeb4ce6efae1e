package views

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"mangabookmark/backend/safetext"
	"mangabookmark/client"
)

// Column is one table column. Width 0 with Flex takes the space left.
type Column struct {
	Title string
	Width int
	Right bool
	Flex  bool
}

// Paint names the style a cell is drawn in.
type Paint int

// The paints of table cells.
const (
	PaintRow Paint = iota
	PaintDim
	PaintCalm
	PaintHold
	PaintFault
	paintCount
)

// Cell is one table cell: plain text and the paint it is drawn in.
type Cell struct {
	Text  string
	Paint Paint
}

// painter holds the escape codes around a cell of each paint, plain and
// selected, computed once per table: lipgloss.Render per cell would cost
// most of a frame on a long worklist.
type painter struct {
	pre, post [2][paintCount]string
}

func (f Frame) painter() painter {
	var p painter
	for i := range paintCount {
		st := f.style(i)
		for sel := 0; sel < 2; sel++ {
			if sel == 1 {
				st = st.Background(f.S.Selected.GetBackground()).Bold(true)
			}
			pre, post, _ := strings.Cut(st.Render("\x00"), "\x00")
			p.pre[sel][i], p.post[sel][i] = pre, post
		}
	}
	return p
}

func (p painter) paint(text string, paint Paint, selected bool) string {
	sel := 0
	if selected {
		sel = 1
	}
	return p.pre[sel][paint] + text + p.post[sel][paint]
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
		t := safetext.Show(text) // Site and person text: no control character reaches the terminal
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
	p := f.painter()
	gutter := f.S.Title.Render("▸ ")
	end := min(len(rows), offset+capacity)
	for r := offset; r < end; r++ {
		selected := r == sel
		var b strings.Builder
		if selected {
			b.WriteString(gutter)
		} else {
			b.WriteString("  ")
		}
		for i, cl := range rows[r] {
			b.WriteString(p.paint(pad(cl.Text, i), cl.Paint, selected))
			if i < len(cols)-1 {
				b.WriteString(p.paint(" ", PaintRow, selected))
			}
		}
		lines = append(lines, b.String())
	}
	return lines
}

// StatePaint is the paint of a Lane state word: faults red, holds amber,
// quiet states dim, work calm. The dashboard and mbctl's tables both use it.
func StatePaint(state string) Paint {
	if client.IsFault(state) {
		return PaintFault
	}
	switch state {
	case client.StatePaused:
		return PaintHold
	case client.StateIdle, client.StateAsleep, client.StateDisabled:
		return PaintDim
	}
	return PaintCalm
}

// style is the lipgloss style of a paint, for text outside a table.
func (f Frame) style(p Paint) lipgloss.Style {
	return [paintCount]lipgloss.Style{f.S.Row, f.S.Dim, f.S.Calm, f.S.Hold, f.S.Fault}[p]
}
