package store

import (
	"context"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
)

// namedArgs are a statement's arguments by name (@reader, @number), as
// pgx.StrictNamedArgs takes them: a statement composed of fragments from
// several files names what it uses instead of sharing positional numbers
// ($5, $9) across them, and a name missing or left over is an error.
//
// Unlike pgx.StrictNamedArgs it rewrites each statement once: pgx lexes
// the whole text on every call (about 0.1 ms for the Lane's read
// statement, which runs once a read), so the positional text and the
// order of the names are kept per statement text, a fixed set (every
// statement is built from constants).
type namedArgs map[string]any

// positional is a named statement as PostgreSQL takes it.
type positional struct {
	sql   string
	names []string // the name of $1, $2, ...
}

// namedStatements maps a named statement's text to its *positional.
var namedStatements sync.Map

// RewriteQuery implements pgx.QueryRewriter.
func (a namedArgs) RewriteQuery(ctx context.Context, conn *pgx.Conn, sql string, _ []any) (string, []any, error) {
	p, ok := namedStatements.Load(sql)
	if !ok {
		// Each name's value its own name: the rewritten arguments are
		// then the names in positional order.
		probe := make(pgx.StrictNamedArgs, len(a))
		for n := range a {
			probe[n] = n
		}
		q, order, err := probe.RewriteQuery(ctx, conn, sql, nil)
		if err != nil {
			return "", nil, err
		}
		np := &positional{sql: q, names: make([]string, len(order))}
		for i, n := range order {
			np.names[i] = n.(string)
		}
		p, _ = namedStatements.LoadOrStore(sql, np)
	}
	np := p.(*positional)
	if len(a) != len(np.names) {
		return "", nil, fmt.Errorf("store: the statement takes %v, given %d arguments", np.names, len(a))
	}
	args := make([]any, len(np.names))
	for i, n := range np.names {
		v, ok := a[n]
		if !ok {
			return "", nil, fmt.Errorf("store: argument %s missing", n)
		}
		args[i] = v
	}
	return np.sql, args, nil
}
