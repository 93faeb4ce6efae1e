package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"mangabookmark/backend/safetext"
)

// shortHelp is the footer's bindings on the active screen, taken from the
// key map so a hint always names a bound key; every binding shows in the
// full help (?), these are the ones the screen acts on most.
func (m Model) shortHelp() []key.Binding {
	km := m.km
	if m.help {
		return []key.Binding{km.Back, km.Quit}
	}
	switch m.screen {
	case ScreenDetail:
		return []key.Binding{km.Up, km.Down, km.Back, km.Pause, km.Resume, km.Help, km.Quit}
	case ScreenFailing:
		return []key.Binding{km.Force, km.Search, km.SiteFilter, km.OutcomeFilter, km.Help, km.Quit}
	case ScreenNotices:
		return []key.Binding{km.NextView, km.Lanes, km.Failing, km.Help, km.Quit}
	}
	if m.opt.Demo.LoginURL != "" {
		return []key.Binding{km.CopyLink, km.Open, km.Pause, km.Resume, km.NextView, km.Help, km.Quit}
	}
	return []key.Binding{km.Open, km.Pause, km.Resume, km.NextView, km.Help, km.Quit}
}

// footer is the last line: the pause prompt while it is open, else a
// flash message, else the short help of the active screen.
func (m Model) footer() string {
	s := m.st
	var text string
	switch {
	case m.prompting:
		text = s.Prompt.Render("pause "+safetext.Show(m.promptSite)+" for: ") + safetext.Show(m.prompt) + s.Prompt.Render("▏") +
			s.Dim.Render("  (90m, 2h30m, 1d; a reason after a space; enter/esc)")
		if m.flashFault && m.flash != "" {
			text += "  " + s.Fault.Render(safetext.Show(m.flash))
		}
	case m.filter.Searching:
		text = s.Footer.Render("type to search site, id, title and outcome · enter keeps it · esc clears it")
	case m.flash != "":
		if m.flashFault {
			text = s.Fault.Render(safetext.Show(m.flash))
		} else {
			text = s.Flash.Render(safetext.Show(m.flash))
		}
	default:
		h := help.New()
		h.Width = m.width
		h.ShortSeparator = " · "
		h.Styles.ShortKey, h.Styles.ShortDesc = s.Footer.Bold(true), s.Footer
		h.Styles.ShortSeparator, h.Styles.Ellipsis = s.Footer, s.Footer
		text = h.ShortHelpView(m.shortHelp())
	}
	w := ansi.StringWidth(text)
	if w > m.width {
		return ansi.Truncate(text, m.width, "…")
	}
	return text + strings.Repeat(" ", m.width-w)
}
