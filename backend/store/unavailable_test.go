package store_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// TestIsUnavailable drives real failures of a real PostgreSQL and checks
// that IsUnavailable tells an outage (retryable) from a fault in the request.
func TestIsUnavailable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.NewURL(t)

	// A connection the driver has closed: pgx answers pgconn.ErrConnClosed.
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Close(ctx); err != nil {
		t.Fatal(err)
	}
	_, closedErr := conn.Exec(ctx, "SELECT 1")

	// A connection PostgreSQL itself ended (an admin or a restart).
	victim, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close(ctx)
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "SELECT pg_terminate_backend($1)", victim.PgConn().PID()); err != nil {
		t.Fatal(err)
	}
	_, terminatedErr := victim.Exec(ctx, "SELECT 1")

	// Nobody listening where the database should be.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, refusedErr := pgx.Connect(ctx, "postgres://postgres@"+addr+"/x?connect_timeout=2")

	// A query that takes longer than its context allows (pgx closes the
	// connection it cancels, so it gets its own).
	sleeper, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer sleeper.Close(ctx)
	slow, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, timeoutErr := sleeper.Exec(slow, "SELECT pg_sleep(5)")

	// Faults in the request, not the database.
	_, syntaxErr := admin.Exec(ctx, "SELEC 1")
	_, missingErr := admin.Exec(ctx, "SELECT * FROM no_such_table")

	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"closed connection", closedErr, true},
		{"closed connection, wrapped", fmt.Errorf("store: x: %w", closedErr), true},
		{"terminated by the server", terminatedErr, true},
		{"connection refused", refusedErr, true},
		{"query timed out", timeoutErr, true},
		{"syntax error", syntaxErr, false},
		{"missing table", missingErr, false},
		{"not found", store.ErrNotFound, false},
		{"plain error naming a closed conn", errors.New("the conn closed its door"), false},
		{"nil", nil, false},
	} {
		if c.err == nil && c.name != "nil" {
			t.Errorf("%s: the fault produced no error", c.name)
			continue
		}
		if got := store.IsUnavailable(c.err); got != c.want {
			t.Errorf("%s: IsUnavailable(%v) = %v, want %v", c.name, c.err, got, c.want)
		}
	}
}
