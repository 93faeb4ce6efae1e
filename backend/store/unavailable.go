package store

import (
	"context"
	"errors"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// IsUnavailable reports whether err means the database could not be
// reached or is shutting down or restarting, as opposed to a fault in the
// request: callers answer such errors with a retryable status (503). It
// goes by pgx's typed errors only (a failed connect, a closed connection,
// a timeout, PostgreSQL's connection and shutdown codes), never by error text.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var connErr *pgconn.ConnectError
	var netErr net.Error
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &connErr), errors.As(err, &netErr):
		return true
	case errors.As(err, &pgErr):
		// Class 08: connection exception; 57P0x: shutdown, crash, cannot
		// connect now; 53300: too many connections.
		return strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "57P") || pgErr.Code == "53300"
	case errors.Is(err, pgconn.ErrConnClosed), errors.Is(err, context.DeadlineExceeded), pgconn.Timeout(err):
		return true
	}
	// SafeToRetry: the driver failed before the request reached the server.
	return pgconn.SafeToRetry(err)
}
