// Package migrations holds the versioned SQL schema, embedded in the binary
// and applied by goose at start-up and by `mangabookmark migrate`.
package migrations

import "embed"

// FS holds every NNNN_name.sql migration in order.
//
//go:embed *.sql
var FS embed.FS
