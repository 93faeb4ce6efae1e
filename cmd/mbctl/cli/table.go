package cli

import (
	"io"
	"strings"
	"unicode/utf8"

	"mangabookmark/backend/safetext"
)

// Colours of the console's calm palette; faults are the only red.
const (
	ansiFault = "\x1b[38;2;207;92;77m"  // #cf5c4d
	ansiWarn  = "\x1b[38;2;214;170;98m" // amber: held back, not broken
	ansiCalm  = "\x1b[38;2;120;170;140m"
	ansiDim   = "\x1b[38;2;128;128;128m"
	ansiReset = "\x1b[0m"
)

// cell is one table cell: plain text and an optional colour.
type cell struct {
	text  string
	color string
}

func txt(s string) cell { return cell{text: s} }

// table writes rows with columns padded to their widest plain text, so
// colour codes never break alignment. Columns listed in right are
// right-aligned (numbers).
type table struct {
	head  []string
	rows  [][]cell
	right map[int]bool
}

// add appends a row. Every cell goes through safetext.Show: a table cell
// may hold Site or person text, and no control character from it may reach
// the terminal.
func (t *table) add(cells ...cell) {
	for i := range cells {
		cells[i].text = safetext.Show(cells[i].text)
	}
	t.rows = append(t.rows, cells)
}

func (t *table) write(w io.Writer, color bool) error {
	width := make([]int, len(t.head))
	for i, h := range t.head {
		width[i] = utf8.RuneCountInString(h)
	}
	for _, r := range t.rows {
		for i, cl := range r {
			if n := utf8.RuneCountInString(cl.text); n > width[i] {
				width[i] = n
			}
		}
	}
	var b strings.Builder
	line := func(cells []cell) {
		var l strings.Builder
		for i, cl := range cells {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cl.text))
			text := cl.text
			if color && cl.color != "" {
				text = cl.color + text + ansiReset
			}
			switch {
			case t.right[i]:
				l.WriteString(pad + text)
			case i < len(cells)-1:
				l.WriteString(text + pad)
			default:
				l.WriteString(text)
			}
			if i < len(cells)-1 {
				l.WriteString("  ")
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteByte('\n')
	}
	head := make([]cell, len(t.head))
	for i, h := range t.head {
		head[i] = cell{text: h, color: ansiDim}
	}
	line(head)
	for _, r := range t.rows {
		line(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
