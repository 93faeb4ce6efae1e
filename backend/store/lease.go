package store

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"

	"github.com/jackc/pgx/v5"
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
	dsn  string
	site string
	key  int64

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

// TryAcquire connects when needed and tries the advisory lock without
// waiting. It reports whether this process now holds the Lane.
func (l *LaneLock) TryAcquire(ctx context.Context) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held {
		return true, nil
	}
	if l.conn == nil || l.conn.IsClosed() {
		c, err := connectDedicated(ctx, l.dsn)
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
// LockAppName. The error never quotes dsn, which may hold a password.
func connectDedicated(ctx context.Context, dsn string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, errors.New("the database URL does not parse")
	}
	cfg.RuntimeParams["application_name"] = LockAppName
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
	c, err := connectDedicated(ctx, s.dsn)
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
