package views

import (
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"mangabookmark/tui/styles"
)

// Frame is the area and context a view renders into.
type Frame struct {
	Width, Height int
	Now           time.Time
	S             styles.Styles
}

// fit truncates or pads s (which may hold ANSI codes) to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := ansi.StringWidth(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-n)
}

// block joins lines and pads or cuts them to exactly h lines of w cells.
func block(lines []string, w, h int) string {
	if h <= 0 {
		return ""
	}
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", w)
		}
	}
	return strings.Join(out, "\n")
}

// Scroll returns the first visible row so that sel stays within a window
// of capacity rows, moving offset as little as possible.
func Scroll(sel, offset, capacity, n int) int {
	if capacity <= 0 || n <= capacity {
		return 0
	}
	if sel < offset {
		offset = sel
	}
	if sel >= offset+capacity {
		offset = sel - capacity + 1
	}
	if offset > n-capacity {
		offset = n - capacity
	}
	if offset < 0 {
		offset = 0
	}
	return offset
}
