package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"mangabookmark/tui/keymap"
	"mangabookmark/tui/views"
)

// list is a selection in a list of rows and the first row shown: the
// Lanes table, the worklist and (as a scroll position only) a Lane's
// passes all use it.
type list struct {
	sel, off int
}

// move applies the movement keys to the selection of n rows; page is how
// many rows a page key moves. It reports whether msg was a movement key.
func (l *list) move(km keymap.KeyMap, msg tea.KeyMsg, n, page int) bool {
	switch {
	case key.Matches(msg, km.Up):
		l.sel--
	case key.Matches(msg, km.Down):
		l.sel++
	case key.Matches(msg, km.PageUp):
		l.sel -= max(1, page)
	case key.Matches(msg, km.PageDown):
		l.sel += max(1, page)
	case key.Matches(msg, km.Top):
		l.sel = 0
	case key.Matches(msg, km.Bottom):
		l.sel = n - 1
	default:
		return false
	}
	l.sel = clamp(l.sel, n)
	return true
}

// fit keeps the selection inside n rows and scrolls so it stays within a
// window of capacity rows.
func (l *list) fit(n, capacity int) {
	l.sel = clamp(l.sel, n)
	l.off = views.Scroll(l.sel, l.off, capacity, n)
}

// scroll treats the selection as the first row shown of n rows in a window
// of capacity rows (a list that scrolls without a selected row).
func (l *list) scroll(n, capacity int) {
	l.sel = clamp(l.sel, max(1, n-capacity+1))
	l.off = l.sel
}

func clamp(i, n int) int {
	if i >= n {
		i = n - 1
	}
	return max(0, i)
}
