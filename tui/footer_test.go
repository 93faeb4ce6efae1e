package tui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api/apitest"
	"mangabookmark/tui/keymap"
	"mangabookmark/tui/views"
)

// bindings lists every binding of the key map by field name.
func bindings(km keymap.KeyMap) map[string]key.Binding {
	out := map[string]key.Binding{}
	v := reflect.ValueOf(km)
	for i := range v.NumField() {
		out[v.Type().Field(i).Name] = v.Field(i).Interface().(key.Binding)
	}
	return out
}

// keyMsg is the message a terminal sends for a binding's first key.
func keyMsg(b key.Binding) tea.KeyMsg {
	k := b.Keys()[0]
	for t, name := range map[tea.KeyType]string{tea.KeyEnter: "enter", tea.KeyEsc: "esc", tea.KeyTab: "tab",
		tea.KeyShiftTab: "shift+tab", tea.KeyUp: "up", tea.KeyDown: "down", tea.KeyPgUp: "pgup", tea.KeyPgDown: "pgdown",
		tea.KeyHome: "home", tea.KeyEnd: "end", tea.KeyCtrlR: "ctrl+r", tea.KeyCtrlC: "ctrl+c", tea.KeyCtrlU: "ctrl+u",
		tea.KeyCtrlD: "ctrl+d", tea.KeyBackspace: "backspace"} {
		if k == name {
			return tea.KeyMsg{Type: t}
		}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// Every bound key shows in the full help (the demo's copy key is bound,
// and listed, only when the dashboard shows the demo's links).
func TestHelpListsEveryBinding(t *testing.T) {
	t.Parallel()
	km := keymap.Default()
	m := New(Options{})
	if out := views.Help(m.frame(200), km, false); strings.Contains(out, km.CopyLink.Help().Desc) {
		t.Error("the help lists the demo's copy key outside the demo")
	}
	out := views.Help(m.frame(200), km, true)
	for name, b := range bindings(km) {
		h := b.Help()
		if !strings.Contains(out, h.Key) || !strings.Contains(out, h.Desc) {
			t.Errorf("help does not list %s (%q %q)", name, h.Key, h.Desc)
		}
	}
}

// Each screen's footer is its short help, and every key it names does
// something on that screen: pressing it changes the screen or starts a
// command (no hint names a key the screen ignores).
func TestFooterHintsAreBoundKeys(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	clock := &testClock{t: admintest.Now}
	base := loaded(t, f, clock, 140, 40)
	screens := map[string]Model{
		"lanes": base,
		// weebcentral: 30 passes, more than a 24-line detail shows, so the
		// movement keys scroll.
		"detail":  refresh(t, keys(t, loaded(t, f, clock, 80, 24), "down", "down", "down", "enter")),
		"failing": keys(t, base, "2"),
		"notices": keys(t, base, "3"),
		"help":    keys(t, base, "?"),
		"demo":    withDemo(base),
	}
	for name, m := range screens {
		footer := m.footer()
		for _, b := range m.shortHelp() {
			h := b.Help()
			if !strings.Contains(footer, h.Key+" "+h.Desc) {
				t.Errorf("%s: footer %q lacks %q", name, footer, h.Key+" "+h.Desc)
			}
			start := m
			if key.Matches(keyMsg(b), m.km.Up) {
				start = step(t, m, keyMsg(m.km.Down)) // at the top, up would have nowhere to go
			}
			next, cmd := start.Update(keyMsg(b))
			if cmd == nil && next.(Model).View() == start.View() {
				t.Errorf("%s: the footer names %q, but pressing it does nothing there", name, h.Key)
			}
		}
	}
}
