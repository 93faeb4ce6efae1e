package views

import (
	"fmt"
	"strings"
	"time"

	"mangabookmark/backend/safetext"
	"mangabookmark/client"
)

// detailChrome is the lines above the passes table: two summary lines, the
// strip's caption and the strip, and a blank.
const detailChrome = 5

// DetailCapacity is how many pass rows fit in a body of height h.
func DetailCapacity(h int) int { return max(0, h-detailChrome-1) }

// Detail renders one Lane: a summary, a bar strip of behind-by over the
// passes (oldest left) and the recent passes, newest first.
func Detail(f Frame, l client.Lane, passes []client.Pass, offset int) string {
	s := f.S
	gap := Human(time.Duration(l.EffectiveGapS) * time.Second)
	if l.EffectiveGapS != l.GapS {
		gap += fmt.Sprintf(" (registry %s)", Human(time.Duration(l.GapS)*time.Second))
	}
	line1 := s.Title.Render(safetext.Show(l.Site)) + "  " + f.style(StatePaint(l.State)).Render(safetext.Show(l.State)) +
		s.Dim.Render(fmt.Sprintf("  %s route", map[bool]string{true: "browser", false: "plain"}[l.Browser]))
	line2 := fmt.Sprintf("series %d · due %d · forced %d · behind %s · gap %s · rest %s · ",
		l.Series, l.Due, l.ForcedPending, Behind(l.BehindByS), gap, Human(time.Duration(l.RestS)*time.Second))
	if l.Failing > 0 {
		line2 += s.Fault.Render(fmt.Sprintf("failing %d", l.Failing))
	} else {
		line2 += "failing 0"
	}
	if w := Window(f.Now, l); w != "" {
		line2 += " · " + s.Hold.Render(w)
	}
	if l.Pass != nil {
		line1 += "  " + s.Calm.Render(LivePass(f.Now, *l.Pass))
	}
	if l.LastSeenAt != nil {
		line1 += s.Dim.Render("  holder seen " + Ago(f.Now, l.LastSeenAt))
	}
	lines := []string{line1, line2}
	strip := width(f.Width - 16)
	lines = append(lines, s.Dim.Render(fmt.Sprintf("behind-by over the last %d passes (oldest left, peak %s)",
		min(len(passes), strip), Behind(peak(passes, strip)))))
	lines = append(lines, "  "+Strip(f, passes, strip), "")

	cols := []Column{{Title: "STARTED", Width: 9}, {Title: "TOOK", Width: 5, Right: true},
		{Title: "DUE", Width: 5, Right: true}, {Title: "CHK", Width: 5, Right: true}}
	if f.Width >= 100 {
		for _, t := range []string{"OK", "NEW", "NF", "NC", "UNF", "ERR", "REF", "UNR"} {
			cols = append(cols, Column{Title: t, Width: 4, Right: true})
		}
		cols = append(cols, Column{Title: "BEHIND", Width: 7, Right: true}, Column{Title: "SKIP", Flex: true})
	} else {
		cols = append(cols, Column{Title: "BEHIND", Width: 7, Right: true}, Column{Title: "OUTCOMES", Flex: true})
	}
	rows := make([][]Cell, len(passes))
	num := func(n int, fault bool) Cell {
		c := Cell{Text: fmt.Sprint(n)}
		if fault && n > 0 {
			c.Paint = PaintFault
		} else if n == 0 {
			c.Paint = PaintDim
		}
		return c
	}
	for i, p := range passes {
		row := []Cell{{Text: Ago(f.Now, &p.StartedAt)}, {Text: Human(p.FinishedAt.Sub(p.StartedAt))},
			num(p.Due, false), num(p.Checked, p.Due > 0 && p.Checked == 0)}
		if f.Width >= 100 {
			row = append(row, num(p.OK, false), num(p.New, false), num(p.NotFound, true), num(p.NoChapter, true),
				num(p.Unfetchable, true), num(p.Errors, true), num(p.Refused, true), num(p.Unreachable, true),
				Cell{Text: Behind(p.BehindByS)})
			skip := Cell{Text: p.Skip}
			if p.Skip != "" {
				skip.Paint = PaintFault
			}
			row = append(row, skip)
		} else {
			out := Cell{Text: passOutcomes(p)}
			if PassFaulty(p) {
				out.Paint = PaintFault
			}
			row = append(row, Cell{Text: Behind(p.BehindByS)}, out)
		}
		rows[i] = row
	}
	if len(passes) == 0 {
		lines = append(lines, s.Dim.Render("  no passes recorded yet"))
	} else {
		lines = append(lines, f.table(cols, rows, -1, offset, DetailCapacity(f.Height))...)
	}
	return block(lines, f.Width, f.Height)
}

func width(n int) int { return max(8, min(n, 120)) }

func peak(passes []client.Pass, n int) int64 {
	var m int64
	for i := 0; i < len(passes) && i < n; i++ {
		m = max(m, passes[i].BehindByS)
	}
	return m
}

// Strip draws behind-by of up to n passes as bars (▁ to █), oldest left,
// scaled to the largest; bars at or over an hour behind are drawn as faults.
func Strip(f Frame, passes []client.Pass, n int) string {
	bars := []rune("▁▂▃▄▅▆▇█")
	k := min(n, len(passes))
	top := peak(passes, k)
	var b strings.Builder
	for i := k - 1; i >= 0; i-- {
		v := passes[i].BehindByS
		idx := 0
		if top > 0 {
			idx = int(v * int64(len(bars)-1) / top)
		}
		ch := string(bars[idx])
		if v >= 3600 {
			b.WriteString(f.S.SparkFault.Render(ch))
		} else {
			b.WriteString(f.S.Sparkline.Render(ch))
		}
	}
	return b.String()
}
