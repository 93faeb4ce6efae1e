package lanes

import (
	"context"
	"time"
)

// own takes the Site's Lane and runs it for as long as this process holds
// the Site's advisory lock. The lock lives on a connection of its own: when
// the process dies the connection closes and PostgreSQL frees the lock, and
// another process's own loop (retrying every LockRetry of wall time) takes
// the Lane. Wall time, not the Lane clock, paces the retries because they
// are about processes living and dying, not about polling.
func (m *Manager) own(ctx context.Context, l *lane) {
	lock := m.cfg.Store.NewLaneLock(l.site.Name)
	defer lock.Release(context.WithoutCancel(ctx))
	failing := false
	for ctx.Err() == nil {
		held, err := lock.TryAcquire(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			if !failing {
				l.log.Warn("lanes: cannot take the Lane lock; retrying", "error", err)
			}
			failing = true
		case held:
			failing = false
			l.log.Info("lanes: Lane taken by this process")
			l.setGuard(lock.Check)
			m.runLane(ctx, l)
			l.setGuard(nil)
			if ctx.Err() == nil {
				l.log.Warn("lanes: Lane lock lost; stopping the Lane and trying to take it back")
				lock.Release(ctx)
			}
		default:
			failing = false
		}
		t := time.NewTimer(m.cfg.LockRetry)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
}

// runLane runs passes until ctx ends or the lock is lost, waiting each
// pass's pace (cut short by Wake) in between.
func (m *Manager) runLane(ctx context.Context, l *lane) {
	for ctx.Err() == nil {
		res, pace := m.runPass(ctx, l)
		if res.Skip == SkipLockLost || ctx.Err() != nil {
			return
		}
		if _, err := sleepOrWake(ctx, m.clock, l.wake, pace); err != nil {
			return
		}
	}
}
