package views

import (
	"fmt"
	"time"

	"mangabookmark/backend/safetext"
	"mangabookmark/client"
)

// LanesCapacity is how many Lane rows fit in a body of height h.
func LanesCapacity(h int) int { return max(0, h-1) }

// Attention is what the Lanes screen shows under the table when there is
// room: the open notices and the oldest failures.
type Attention struct {
	Notices   []client.Notice
	Failing   []client.Failing // oldest failure first
	FailTotal int
}

// Lanes renders the Lanes table with the selected row marked. Narrow
// frames (under 110 cells) drop the series and gap columns and shorten the
// last pass to its age and counts. Room left below goes to the Attention.
func Lanes(f Frame, lanes []client.Lane, sel, offset int, att Attention) string {
	wide := f.Width >= 110
	cols := []Column{{Title: "SITE", Width: 11}, {Title: "STATE", Width: 12}}
	if wide {
		cols = append(cols, Column{Title: "SERIES", Width: 7, Right: true})
	}
	cols = append(cols, Column{Title: "DUE", Width: 6, Right: true}, Column{Title: "BEHIND", Width: 7, Right: true})
	if wide {
		cols = append(cols, Column{Title: "GAP", Width: 4, Right: true})
	}
	cols = append(cols, Column{Title: "FAIL", Width: 5, Right: true})
	if wide {
		cols = append(cols, Column{Title: "LAST PASS", Width: 42}, Column{Title: "WINDOW", Flex: true})
	} else {
		cols = append(cols, Column{Title: "LAST PASS / WINDOW", Flex: true})
	}
	rows := make([][]Cell, len(lanes))
	for i, l := range lanes {
		fail := Cell{Text: fmt.Sprint(l.Failing)}
		if l.Failing > 0 {
			fail.Paint = PaintFault
		}
		behind := Cell{Text: Behind(l.BehindByS)}
		if l.BehindByS >= 3600 {
			behind.Paint = PaintFault
		}
		last := Cell{Text: "no pass yet", Paint: PaintDim}
		if l.Pass != nil { // a long first pass shows its progress, not "no pass yet"
			last = Cell{Text: LivePass(f.Now, *l.Pass), Paint: PaintCalm}
		}
		if l.LastPass != nil {
			last = Cell{Text: Ago(f.Now, &l.LastPass.FinishedAt) + " " + PassCounts(*l.LastPass)}
			if PassFaulty(*l.LastPass) {
				last.Paint = PaintFault
			}
		}
		win := Cell{Text: Window(f.Now, l), Paint: PaintHold}
		if l.RefuseUntil != nil && l.RefuseUntil.After(f.Now) {
			win.Paint = PaintFault
		}
		row := []Cell{{Text: l.Site}, {Text: l.State, Paint: StatePaint(l.State)}}
		if wide {
			row = append(row, Cell{Text: fmt.Sprint(l.Series)})
		}
		row = append(row, Cell{Text: fmt.Sprint(l.Due)}, behind)
		if wide {
			row = append(row, Cell{Text: Human(time.Duration(l.EffectiveGapS) * time.Second)})
		}
		row = append(row, fail)
		switch {
		case wide:
			row = append(row, last, win)
		case win.Text != "":
			row = append(row, win)
		default:
			row = append(row, last)
		}
		rows[i] = row
	}
	if len(lanes) == 0 {
		return block([]string{f.S.Dim.Render("  no Lanes yet: waiting for the first answer from the server")}, f.Width, f.Height)
	}
	lines := f.table(cols, rows, sel, offset, LanesCapacity(f.Height))
	if room := f.Height - len(lines); room >= 6 {
		lines = append(lines, f.attention(att, room)...)
	}
	return block(lines, f.Width, f.Height)
}

// attention lists the open notices, then as many of the oldest failures as
// fit in room lines.
func (f Frame) attention(att Attention, room int) []string {
	s := f.S
	lines := []string{"", s.Header.Render(fmt.Sprintf("  OPEN NOTICES (%d)", len(att.Notices)))}
	if len(att.Notices) == 0 {
		lines = append(lines, s.Calm.Render("    none"))
	}
	for _, n := range att.Notices {
		site := safetext.Show(n.Site)
		if site == "" {
			site = "(all)"
		}
		note := s.Dim.Render("notified " + Ago(f.Now, n.NotifiedAt))
		if n.NotifiedAt == nil {
			note = s.Hold.Render("not notified yet")
		}
		lines = append(lines, "    "+s.Fault.Render(n.Kind)+" "+site+" for "+Human(f.Now.Sub(n.Since))+" · "+note)
	}
	lines = append(lines, "", s.Header.Render(fmt.Sprintf("  OLDEST FAILING (%d in all; press 2 for the worklist)", att.FailTotal)))
	left := room - len(lines)
	if len(att.Failing) == 0 && left > 0 {
		lines = append(lines, s.Calm.Render("    nothing failing"))
	}
	for i := 0; i < len(att.Failing) && i < left; i++ {
		r := att.Failing[i]
		lines = append(lines, fmt.Sprintf("    %s %-11s %-10s %s", fit(Human(f.Now.Sub(r.FailingSince)), 6),
			safetext.Show(r.Site), safetext.Show(r.SeriesID), s.Fault.Render(fit(safetext.Show(r.Outcome), 11)))+" "+s.Dim.Render(safetext.Show(r.Title)))
	}
	if len(lines) > room {
		lines = lines[:room]
	}
	return lines
}
