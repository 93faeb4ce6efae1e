// Package keymap is the dashboard's one key map.
package keymap

import "github.com/charmbracelet/bubbles/key"

// KeyMap holds every binding of the dashboard. The full help (?) lists
// them all and each screen's footer is built from them (tui's shortHelp),
// so no hint can name a key that is not bound. Descriptions are short:
// they are footer hints too.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	NextView, PrevView                      key.Binding
	Lanes, Failing, Notices                 key.Binding
	Open, Back                              key.Binding
	Pause, Resume, Force                    key.Binding
	Search, SiteFilter, OutcomeFilter       key.Binding
	Refresh, Help, Quit                     key.Binding
	// CopyLink copies the demo's login link (bound only when the
	// dashboard shows one: Options.Demo).
	CopyLink key.Binding
}

// Default returns the bindings.
func Default() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Up:            b("↑/k", "up", "up", "k"),
		Down:          b("↓/j", "down", "down", "j"),
		PageUp:        b("pgup", "page up", "pgup", "ctrl+u"),
		PageDown:      b("pgdn", "page down", "pgdown", "ctrl+d"),
		Top:           b("g", "top", "home", "g"),
		Bottom:        b("G", "bottom", "end", "G"),
		NextView:      b("tab", "next view", "tab"),
		PrevView:      b("shift+tab", "previous view", "shift+tab"),
		Lanes:         b("1", "lanes", "1"),
		Failing:       b("2", "failing worklist", "2"),
		Notices:       b("3", "notices", "3"),
		Open:          b("enter", "detail", "enter"),
		Back:          b("esc", "back", "esc", "backspace"),
		Pause:         b("p", "pause lane", "p"),
		Resume:        b("r", "resume lane", "r"),
		Force:         b("f", "force poll", "f"),
		Search:        b("/", "search", "/"),
		SiteFilter:    b("s", "filter site", "s"),
		OutcomeFilter: b("o", "filter outcome", "o"),
		Refresh:       b("ctrl+r", "refresh now", "ctrl+r", "R"),
		Help:          b("?", "help", "?"),
		Quit:          b("q", "quit", "q", "ctrl+c"),
		CopyLink:      b("c", "copy login link", "c"),
	}
}
