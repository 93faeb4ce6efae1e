// Package cli is mbctl: the kong command tree, one file per command, the
// config file, and the human and JSON renderings. Main is the whole program
// as a function, so tests run it in-process with their own environment,
// writers and clock.
//
// Exit codes: 0 ok, 1 the server said no (its message is shown), 2 usage,
// 3 the server cannot be reached.
package cli
