package web

import (
	"fmt"
	"time"

	"mangabookmark/backend/store"
)

// Chart geometry, in SVG user units (the SVG scales to its box).
const (
	chartW   = 600
	chartH   = 120
	chartTop = 14 // room for the maximum's label
)

// chart is the behind-by chart of a Lane's recent passes, drawn on the
// server as SVG bars, oldest on the left.
type chart struct {
	W, H  int
	Bars  []bar
	Max   string // the tallest bar's behind-by, for the axis label
	Label string // the chart's text alternative
	Empty bool
}

// bar is one pass.
type bar struct {
	X, Y, Width, Height float64
	Title               string
	Fault               bool // the Site refused or was unreachable, or the pass was skipped
}

// behindChart draws passes (newest first, as store.ListPasses returns).
func behindChart(passes []store.Pass) chart {
	c := chart{W: chartW, H: chartH, Empty: len(passes) == 0}
	if c.Empty {
		c.Label = "No passes recorded yet."
		return c
	}
	var maxB time.Duration
	for _, p := range passes {
		maxB = max(maxB, p.BehindBy)
	}
	scale := 0.0
	if maxB > 0 {
		scale = float64(chartH-chartTop) / float64(maxB)
	}
	slot := float64(chartW) / float64(len(passes))
	for i := range passes {
		p := passes[len(passes)-1-i]
		h := max(float64(p.BehindBy)*scale, 1)
		c.Bars = append(c.Bars, bar{
			X: float64(i)*slot + slot*0.1, Width: slot * 0.8, Y: chartH - h, Height: h,
			Title: fmt.Sprintf("%s: behind by %s, %d of %d checked", p.StartedAt.UTC().Format("Jan 2 15:04"),
				dur(int64(p.BehindBy/time.Second)), p.Checked, p.Due),
			Fault: p.Skip != "" || p.Refused > 0 || p.Unreachable > 0,
		})
	}
	c.Max = dur(int64(maxB / time.Second))
	c.Label = fmt.Sprintf("Behind-by of the last %d passes, oldest first; the most was %s.", len(passes), c.Max)
	return c
}
