package tui

import (
	"strings"
	"testing"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"mangabookmark/tui/keymap"
)

// The search and the pause prompt edit through the same editLine: typing,
// space, backspace, enter and esc behave the same in both, and neither
// grows past maxLine characters however much is pasted.
func TestLineEditorShared(t *testing.T) {
	t.Parallel()
	runes := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	var s string
	for _, k := range []tea.KeyMsg{runes("2h"), {Type: tea.KeySpace, Runes: []rune{' '}}, runes("mirrör"), {Type: tea.KeyBackspace}} {
		if got := editLine(&s, k); got != editTyped {
			t.Fatalf("key %v: %v", k, got)
		}
	}
	if s != "2h mirrö" {
		t.Errorf("text %q", s)
	}
	if editLine(&s, tea.KeyMsg{Type: tea.KeyEnter}) != editDone || editLine(&s, tea.KeyMsg{Type: tea.KeyEsc}) != editCancel ||
		editLine(&s, tea.KeyMsg{Type: tea.KeyUp}) != editOther {
		t.Error("enter, esc or an arrow key misread")
	}
	long := ""
	editLine(&long, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("é", 5000)), Paste: true})
	editLine(&long, tea.KeyMsg{Type: tea.KeySpace})
	if n := utf8.RuneCountInString(long); n != maxLine {
		t.Errorf("a 5000-character paste kept %d characters, want %d", n, maxLine)
	}

	// The same keys drive the search and the prompt of a model.
	m := New(Options{})
	m.screen = ScreenFailing
	m = keys(t, m, "/", "a", "space", "b")
	if m.filter.Search != "a b" {
		t.Errorf("search %q", m.filter.Search)
	}
	m.prompting, m.promptSite = true, "x"
	m = keys(t, m, "a", "space", "b")
	if m.prompt != "a b" {
		t.Errorf("prompt %q", m.prompt)
	}
}

// One list type moves and scrolls every list the same way.
func TestListMovesAndScrolls(t *testing.T) {
	t.Parallel()
	km := keymap.Default()
	var l list
	for range 12 {
		l.move(km, tea.KeyMsg{Type: tea.KeyDown}, 10, 4)
	}
	l.fit(10, 4)
	if l.sel != 9 || l.off != 6 {
		t.Errorf("after 12 downs in 10 rows: %+v, want sel 9 off 6", l)
	}
	l.move(km, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("g")}, 10, 4)
	l.fit(10, 4)
	if l.sel != 0 || l.off != 0 {
		t.Errorf("after top: %+v", l)
	}
	if l.move(km, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}, 10, 4) {
		t.Error("x moved the list")
	}
	p := list{sel: 50}
	p.scroll(30, 16)
	if p.sel != 14 || p.off != 14 {
		t.Errorf("scroll past the end: %+v, want 14", p)
	}
}
