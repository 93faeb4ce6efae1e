package store

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// LockAppName is the application_name of every connection the Lanes hold
// outside the pool (Lane locks and the wake listener), so an operator can
// find them in pg_stat_activity.
const LockAppName = "mangabookmark-lane-lock"

// LaneLock is the ownership of one Site's Lane across processes: a
// session-level advisory lock held on a connection of its own, outside the
// pool. When the process dies its connection closes and PostgreSQL releases
// the lock, so another process can take the Lane. Not safe for concurrent
// use; each Lane's owner goroutine has its own.
type LaneLock struct {
	dsn    string
	site   string
	key    int64
	holder string // names the holding process in application_name

	mu   sync.Mutex
	conn *pgx.Conn
	held bool
}

// LaneLockKey is the advisory-lock key of a Site's Lane.
func LaneLockKey(site string) int64 {
	h := fnv.New64a()
	h.Write([]byte("mangabookmark lane " + site))
	return int64(h.Sum64())
}

// NewLaneLock prepares the lock of one Site's Lane; it connects lazily.
func (s *Store) NewLaneLock(site string) *LaneLock {
	return &LaneLock{dsn: s.dsn, site: site, key: LaneLockKey(site)}
}

// WithHolder names the process that will hold the lock: its connection's
// application_name becomes LockAppName + " " + holder, which is how
// TakeOverStale tells the holder of a stale heartbeat from a new one.
func (l *LaneLock) WithHolder(holder string) *LaneLock {
	l.holder = holder
	return l
}

// TryAcquire connects when needed and tries the advisory lock without
// waiting. It reports whether this process now holds the Lane.
func (l *LaneLock) TryAcquire(ctx context.Context) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held {
		return true, nil
	}
	if l.conn == nil || l.conn.IsClosed() {
		c, err := connectDedicated(ctx, l.dsn, l.holder)
		if err != nil {
			return false, fmt.Errorf("store: lane lock %s: %w", l.site, err)
		}
		l.conn = c
	}
	var ok bool
	if err := l.conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, l.key).Scan(&ok); err != nil {
		l.closeLocked()
		return false, fmt.Errorf("store: lane lock %s: try: %w", l.site, err)
	}
	l.held = ok
	return ok, nil
}

// Check reports whether the lock is still held: the dedicated connection
// must answer. On an error the connection is dropped and the lock counts as
// lost (PostgreSQL releases a session lock with its connection).
func (l *LaneLock) Check(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.held || l.conn == nil {
		return errors.New("store: lane lock: not held")
	}
	if err := l.conn.Ping(ctx); err != nil {
		l.closeLocked()
		return fmt.Errorf("store: lane lock %s: connection lost: %w", l.site, err)
	}
	return nil
}

// Held reports whether the lock was held at the last acquire or check.
func (l *LaneLock) Held() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.held
}

// Release gives the Lane up and closes the dedicated connection.
func (l *LaneLock) Release(ctx context.Context) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn != nil && l.held && !l.conn.IsClosed() {
		_, _ = l.conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, l.key)
	}
	l.closeLocked()
}

// connectDedicated opens a connection of its own, outside the pool, named
// LockAppName (followed by the holder, when one is given). The error never
// quotes dsn, which may hold a password.
func connectDedicated(ctx context.Context, dsn, holder string) (*pgx.Conn, error) {
	// pgxpool's parser, not pgx's: it takes the pool_* settings a
	// DATABASE_URL may carry (docs/operations.md) out of the runtime
	// parameters, which PostgreSQL would refuse ("unrecognized
	// configuration parameter") on this connection of its own.
	pc, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, errors.New("the database URL does not parse")
	}
	cfg := pc.ConnConfig
	cfg.RuntimeParams["application_name"] = strings.TrimSpace(LockAppName + " " + holder)
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return c, nil
}

func (l *LaneLock) closeLocked() {
	if l.conn != nil {
		_ = l.conn.Close(context.Background())
	}
	l.conn = nil
	l.held = false
}

// laneWakeChannel carries Lane wakes between processes: the process that
// records a Forced Poll or a pause may not be the one running the Lane.
const laneWakeChannel = "mangabookmark_lane_wake"

// NotifyLaneWake sends a Lane wake to every process listening
// (ListenLaneWakes). The payload is the caller's (a Site name and sender).
func (s *Store) NotifyLaneWake(ctx context.Context, payload string) error {
	if _, err := s.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, laneWakeChannel, payload); err != nil {
		return fmt.Errorf("store: notify lane wake: %w", err)
	}
	return nil
}

// ListenLaneWakes calls fn with the payload of every Lane wake any process
// sends, on a connection of its own, until ctx ends (nil) or the connection
// fails (the error). onReady, when not nil, runs once listening.
func (s *Store) ListenLaneWakes(ctx context.Context, onReady func(), fn func(payload string)) error {
	c, err := connectDedicated(ctx, s.dsn, "")
	if err != nil {
		return fmt.Errorf("store: listen lane wakes: %w", err)
	}
	defer c.Close(context.WithoutCancel(ctx))
	if _, err := c.Exec(ctx, `LISTEN `+laneWakeChannel); err != nil {
		return fmt.Errorf("store: listen lane wakes: %w", err)
	}
	if onReady != nil {
		onReady()
	}
	for {
		n, err := c.WaitForNotification(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("store: listen lane wakes: %w", err)
		}
		fn(n.Payload)
	}
}

// StaleLaneHolder reports whether the session holding the Site's Lane lock
// belongs to a process that has written no heartbeat (lane_holders.beat_at,
// the database's clock) for longer than after. A holder that has not yet
// written its first heartbeat is never stale: the connection's
// application_name (LockAppName and the holder) must match the row's.
func (s *Store) StaleLaneHolder(ctx context.Context, site string, after time.Duration) (bool, error) {
	n, err := s.staleHolders(ctx, `count(*)`, site, after)
	if err != nil {
		return false, fmt.Errorf("store: stale lane holder %s: %w", site, err)
	}
	return n > 0, nil
}

// TakeOverStale ends the database session holding the Site's Lane lock when
// its holder is stale (StaleLaneHolder): a hung process (stopped,
// deadlocked) keeps its connection, and with it the lock, forever. Ending
// the session frees the lock for the caller's next TryAcquire; the hung
// process finds its lock gone at its next check. It reports whether a
// session was ended.
func (s *Store) TakeOverStale(ctx context.Context, site string, after time.Duration) (bool, error) {
	n, err := s.staleHolders(ctx, `count(*) FILTER (WHERE pg_terminate_backend(a.pid, 5000))`, site, after)
	if err != nil {
		return false, fmt.Errorf("store: take over stale lane %s: %w", site, err)
	}
	return n > 0, nil
}

// staleHolders runs agg over the sessions holding the Site's Lane lock whose
// holder has not beaten for after. pg_try_advisory_lock(bigint) shows in
// pg_locks as classid (high 32 bits), objid (low 32 bits), objsubid 1.
func (s *Store) staleHolders(ctx context.Context, agg, site string, after time.Duration) (int, error) {
	key := uint64(LaneLockKey(site))
	var n int
	err := s.pool.QueryRow(ctx, `
		SELECT `+agg+`
		FROM pg_locks l
		JOIN pg_stat_activity a ON a.pid = l.pid
		JOIN lane_holders h ON h.site = $1 AND a.application_name = $5 || ' ' || h.holder
		WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
			AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
			AND l.classid::bigint = $2 AND l.objid::bigint = $3
			AND h.beat_at < now() - $4 * interval '1 microsecond'`,
		site, int64(key>>32), int64(key&0xffffffff), after.Microseconds(), LockAppName).Scan(&n)
	return n, err
}
