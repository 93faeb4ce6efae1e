// Package archtest holds the import map of docs/architecture.md to the
// code: its tests read the map from the document itself and check every
// package's imports against it with go list, so the document and the code
// cannot drift apart. It also holds two of docs/conventions.md's rules: no
// log message starts with a package's name, and no product Go file is over
// 400 lines. It has no code of its own.
package archtest
