package views

import (
	"fmt"

	"mangabookmark/backend/safetext"
	"mangabookmark/client"
)

// FailingFilter is the worklist's active filter, shown above it.
type FailingFilter struct {
	Site, Outcome, Search string
	Searching             bool // the search box has focus
}

// failingChrome is the filter line above the table.
const failingChrome = 1

// FailingCapacity is how many worklist rows fit in a body of height h.
func FailingCapacity(h int) int { return max(0, h-failingChrome-1) }

// Failing renders the worklist (already filtered and sorted oldest failure
// first) with the filter line above it. total is how many the server holds.
func Failing(f Frame, rows []client.Failing, sel, offset int, filter FailingFilter, shown, total int) string {
	s := f.S
	all := func(v string) string {
		if v == "" {
			return "all"
		}
		return v
	}
	line := fmt.Sprintf("site %s · outcome %s · ", s.Title.Render(safetext.Show(all(filter.Site))), s.Title.Render(safetext.Show(all(filter.Outcome))))
	switch {
	case filter.Searching:
		line += s.Prompt.Render("/") + safetext.Show(filter.Search) + s.Prompt.Render("▏")
	case filter.Search != "":
		line += "search " + s.Title.Render(safetext.Show(filter.Search))
	default:
		line += s.Dim.Render("/ to search")
	}
	count := fmt.Sprintf("  %d shown", len(rows))
	if shown < total {
		count += fmt.Sprintf(" (server sent the oldest %d of %d)", shown, total)
	}
	line += s.Dim.Render(count)
	cols := []Column{{Title: "SITE", Width: 11}, {Title: "SERIES", Width: 10}, {Title: "OUTCOME", Width: 11},
		{Title: "FAILING", Width: 7, Right: true}}
	wide := f.Width >= 100
	if wide {
		cols = append(cols, Column{Title: "CHECKED", Width: 10, Right: true})
	}
	cols = append(cols, Column{Title: "TITLE", Flex: true})
	capacity := FailingCapacity(f.Height)
	lines := []string{line}
	if len(rows) == 0 {
		lines = append(lines, s.Calm.Render("  nothing failing matches"))
		return block(lines, f.Width, f.Height)
	}
	// Build cells only for the visible window: the worklist may hold
	// thousands of rows and a frame must stay cheap.
	end := min(len(rows), offset+capacity)
	cells := make([][]Cell, len(rows))
	for i := offset; i < end; i++ {
		r := rows[i]
		row := []Cell{{Text: r.Site}, {Text: r.SeriesID}, {Text: r.Outcome, Paint: PaintFault},
			{Text: Human(f.Now.Sub(r.FailingSince))}}
		if wide {
			row = append(row, Cell{Text: Ago(f.Now, r.LatestCheckedAt), Paint: PaintDim})
		}
		cells[i] = append(row, Cell{Text: r.Title})
	}
	lines = append(lines, f.table(cols, cells, sel, offset, capacity)...)
	return block(lines, f.Width, f.Height)
}
