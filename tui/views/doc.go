// Package views renders the dashboard's screens as strings: the Lanes
// table, a Lane's detail, the failing worklist, the notices, the help and
// the unreachable banner. Every function is pure: data, selection, size,
// clock and styles in; exactly Height lines of at most Width cells out, so
// the root model can lay them out without flicker.
package views
