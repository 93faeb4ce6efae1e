package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"mangabookmark/migrations"
)

// ErrNotFound is returned when the row asked for does not exist.
var ErrNotFound = errors.New("store: not found")

// Store is the data layer over one pgx pool. It is safe for concurrent use.
type Store struct {
	pool   *pgxpool.Pool
	dsn    string
	limits ReaderLimits
	now    func() time.Time // the limits' clock (SetClock); nil: the wall clock
	merge  *merger          // one-read progress requests, merged (progress_merge.go)
}

// MinConns is the smallest pool the backend runs on: the Lanes, their lock
// connections and the API share it. A DATABASE_URL without pool_max_conns
// gets at least this many; one that asks for fewer is refused.
const MinConns = 8

// Open connects a pool to dsn and checks the database answers. The error
// never quotes dsn, which may hold a password.
func Open(ctx context.Context, dsn string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, errors.New("store: open: DATABASE_URL is not a valid PostgreSQL URL")
	}
	switch {
	case setsMaxConns(dsn) && cfg.MaxConns < MinConns:
		return nil, fmt.Errorf("store: open: pool_max_conns=%d in DATABASE_URL is below %d, the fewest connections the backend runs on", cfg.MaxConns, MinConns)
	case cfg.MaxConns < MinConns:
		cfg.MaxConns = MinConns // pgxpool's default follows the CPU count
	}
	if _, set := cfg.ConnConfig.RuntimeParams["jit"]; !set {
		// PostgreSQL's JIT compiles any plan its estimate puts past
		// jit_above_cost, and the library's statements (a correlated
		// subquery a row for a story's status and final chapter) pass it
		// at a few thousand bookmarks: compiling took 0.2 to 0.5 s of
		// a GET /api/bookmarks that runs in tens of ms without it
		// (docs/adr/0036-no-jit.md). A DATABASE_URL with jit=on keeps it.
		cfg.ConnConfig.RuntimeParams["jit"] = "off"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: open: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: cannot reach PostgreSQL at %s:%d: %w", cfg.ConnConfig.Host, cfg.ConnConfig.Port, err)
	}
	st := &Store{pool: pool, dsn: dsn, limits: DefaultReaderLimits}
	st.merge = newMerger(st)
	return st, nil
}

// Close stops the progress merge workers and releases every connection.
func (s *Store) Close() {
	s.merge.close()
	s.pool.Close()
}

// Pool exposes the pool for benchmarks and tests that need raw SQL.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// DSN returns the connection string the store was opened with (for tests
// and for a dedicated lock connection); never log it.
func (s *Store) DSN() string { return s.dsn }

// Ping reports whether the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}

// Migrate applies every pending migration. Applying twice is a no-op.
func (s *Store) Migrate(ctx context.Context) error {
	return s.withGoose(func(p *goose.Provider) error {
		_, err := p.Up(ctx)
		return err
	})
}

// MigrationStatus is one migration and whether it is applied.
type MigrationStatus struct {
	Version int64
	Source  string
	Applied bool
}

// MigrationStatuses lists every embedded migration and its state.
func (s *Store) MigrationStatuses(ctx context.Context) ([]MigrationStatus, error) {
	var out []MigrationStatus
	err := s.withGoose(func(p *goose.Provider) error {
		st, err := p.Status(ctx)
		if err != nil {
			return err
		}
		for _, m := range st {
			out = append(out, MigrationStatus{Version: m.Source.Version, Source: m.Source.Path, Applied: m.State == goose.StateApplied})
		}
		return nil
	})
	return out, err
}

func (s *Store) withGoose(fn func(*goose.Provider) error) error {
	db := stdlib.OpenDBFromPool(s.pool)
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS,
		goose.WithLogger(goose.NopLogger()))
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	if err := fn(p); err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	return nil
}

// notFound maps pgx.ErrNoRows to ErrNotFound and wraps everything else.
func notFound(what string, err error) error {
	if errors.Is(err, pgx.ErrNoRows) || errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return fmt.Errorf("store: %s: %w", what, err)
}

// setsMaxConns reports whether dsn (URL or keyword/value form) names
// pool_max_conns itself.
func setsMaxConns(dsn string) bool {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		return u.Query().Has("pool_max_conns")
	}
	for _, f := range strings.Fields(dsn) {
		if strings.HasPrefix(f, "pool_max_conns=") {
			return true
		}
	}
	return false
}
