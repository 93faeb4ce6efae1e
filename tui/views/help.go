package views

import (
	"github.com/charmbracelet/bubbles/key"

	"mangabookmark/tui/keymap"
)

// Help renders every key binding in groups; demo adds the demo's key
// (the login link's copy), bound only then.
func Help(f Frame, km keymap.KeyMap, demo bool) string {
	s := f.S
	groups := []struct {
		title string
		keys  []key.Binding
	}{
		{"move", []key.Binding{km.Up, km.Down, km.PageUp, km.PageDown, km.Top, km.Bottom}},
		{"views", []key.Binding{km.Lanes, km.Failing, km.Notices, km.NextView, km.PrevView, km.Open, km.Back}},
		{"act", []key.Binding{km.Pause, km.Resume, km.Force}},
		{"worklist", []key.Binding{km.Search, km.SiteFilter, km.OutcomeFilter}},
		{"general", []key.Binding{km.Refresh, km.Help, km.Quit}},
	}
	if demo {
		groups = append(groups, struct {
			title string
			keys  []key.Binding
		}{"demo", []key.Binding{km.CopyLink}})
	}
	var lines []string
	lines = append(lines, s.Title.Render("keys")+s.Dim.Render("  (? or esc closes this)"))
	for _, g := range groups {
		lines = append(lines, "", s.Header.Render(g.title))
		for _, b := range g.keys {
			h := b.Help()
			lines = append(lines, "  "+s.HelpKey.Render(fit(h.Key, 10))+" "+s.HelpDesc.Render(h.Desc))
		}
	}
	lines = append(lines, "", s.Dim.Render("p asks: 90m, 2h30m or 1d, then a reason"))
	if f.Height < len(lines) && f.Width >= 60 {
		lines = twoColumns(lines, f.Width, f.Height)
	}
	return block(lines, f.Width, f.Height)
}

// twoColumns folds a long help into two columns for short terminals.
func twoColumns(lines []string, w, h int) []string {
	half := (len(lines) + 1) / 2
	col := w / 2
	out := make([]string, half)
	for i := range out {
		right := ""
		if i+half < len(lines) {
			right = lines[i+half]
		}
		out[i] = fit(lines[i], col) + right
	}
	return out
}
