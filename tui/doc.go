// Package tui is the Owner's dashboard: a bubbletea program over the admin
// API client. The root Model stays small: it holds the data of the last
// refresh and the selection, routes keys through one keymap to the active
// view, and does all I/O inside tea.Cmds through client (never
// the store). Rendering lives in tui/views, colours in tui/styles, keys in
// tui/keymap.
package tui
