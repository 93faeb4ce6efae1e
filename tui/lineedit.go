package tui

import (
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
)

// maxLine bounds what the line editor keeps, in characters: a search or a
// pause prompt, never a pasted page.
const maxLine = 200

// edit is what a key did to a line being edited.
type edit int

const (
	editTyped  edit = iota // the text changed (or the key was a no-op edit)
	editDone               // enter: take the text
	editCancel             // esc: drop the text
	editQuit               // ctrl+c: quit the dashboard
	editOther              // not an editing key
)

// editLine is the one line editor the worklist search and the pause prompt
// share: runes (typed or pasted) and space append, backspace deletes the
// last character, enter and esc end the edit. The text never grows past
// maxLine characters.
func editLine(text *string, msg tea.KeyMsg) edit {
	switch msg.Type {
	case tea.KeyEnter:
		return editDone
	case tea.KeyEsc:
		return editCancel
	case tea.KeyCtrlC:
		return editQuit
	case tea.KeyBackspace:
		if r := []rune(*text); len(r) > 0 {
			*text = string(r[:len(r)-1])
		}
	case tea.KeyRunes:
		add := msg.Runes[:min(len(msg.Runes), max(0, maxLine-utf8.RuneCountInString(*text)))]
		*text += string(add)
	case tea.KeySpace: // a terminal's space also carries the rune ' ': add it once
		if utf8.RuneCountInString(*text) < maxLine {
			*text += " "
		}
	default:
		return editOther
	}
	return editTyped
}
