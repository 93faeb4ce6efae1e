package lanes

import (
	"context"
	"time"
)

// own takes the Site's Lane and runs it for as long as this process holds
// the Site's advisory lock. The lock lives on a connection of its own: when
// the process dies the connection closes and PostgreSQL frees the lock, and
// another process's own loop (retrying every LockRetry of wall time) takes
// the Lane. A holder that is alive but hung (stopped, stuck) keeps its
// connection, so a process that cannot take the Lane also checks the
// holder's heartbeat and, once it is older than TakeoverAfter, ends the
// holder's lock session (takeOver). Wall time, not the Lane clock, paces
// the retries because they are about processes living and dying, not about
// polling.
func (m *Manager) own(ctx context.Context, l *lane) {
	lock := m.cfg.Store.NewLaneLock(l.site.Name).WithHolder(m.id)
	defer lock.Release(context.WithoutCancel(ctx))
	failing := false
	for ctx.Err() == nil {
		held, err := lock.TryAcquire(ctx)
		wait := m.cfg.LockRetry
		switch {
		case err != nil && ctx.Err() == nil:
			if !failing {
				l.log.Warn("cannot take the Lane lock; retrying", "error", err)
			}
			failing = true
		case held:
			failing = false
			l.log.Info("Lane taken by this process")
			m.hold(ctx, l, lock.Check)
			m.signals.ended(l.site.Name)
			if ctx.Err() == nil {
				l.log.Warn("Lane lock lost; stopping the Lane and trying to take it back")
				lock.Release(ctx)
			}
		default:
			failing = false
			m.signals.missed(l.site.Name)
			if m.takeOver(ctx, l) {
				wait = 0
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
}

// hold runs the Lane with its heartbeat until the lock is lost or ctx ends.
// The first heartbeat is written before the first pass, so other processes
// know the new holder at once. The heartbeat checks the lock first: a
// process that was hung and taken over finds its lock gone at its next
// heartbeat, writes no beat over the new holder's and stops its Lane even
// in the middle of a long sleep.
func (m *Manager) hold(ctx context.Context, l *lane, check func(context.Context) error) {
	l.setGuard(check)
	defer l.setGuard(nil)
	l.lockLost.Store(false)
	l.beat.resting()
	m.beat(ctx, l)
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer stop()
		m.heartbeat(lctx, l, check)
	}()
	m.runLane(lctx, l)
	stop()
	<-done
}

// takeOver ends the lock session of a holder whose heartbeat is older than
// TakeoverAfter, so this process takes the Lane at its next try. Before it
// does, the stall notice is judged: the hung holder's silence is the
// evidence, and the new holder's first pass ends it.
func (m *Manager) takeOver(ctx context.Context, l *lane) bool {
	stale, err := m.cfg.Store.StaleLaneHolder(ctx, l.site.Name, m.cfg.TakeoverAfter)
	if err != nil || !stale {
		if err != nil && ctx.Err() == nil {
			l.log.Warn("cannot check the Lane holder's heartbeat", "error", err)
		}
		return false
	}
	if w, ok := m.cfg.OwnerNotices.(Watcher); ok {
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		w.Watch(wctx, l.site, m.clock.Now())
		cancel()
	}
	ended, err := m.cfg.Store.TakeOverStale(ctx, l.site.Name, m.cfg.TakeoverAfter)
	switch {
	case err != nil:
		l.log.Warn("cannot take over a silent Lane holder", "error", err)
	case ended:
		l.log.Warn("Lane holder silent; its lock session ended, taking the Lane", "silent_over", m.cfg.TakeoverAfter.String())
	}
	return ended
}

// runLane runs passes until ctx ends or the lock is lost, waiting each
// pass's pace (cut short by Wake) in between.
func (m *Manager) runLane(ctx context.Context, l *lane) {
	for ctx.Err() == nil {
		res, pace := m.runPass(ctx, l)
		if res.Skip == SkipLockLost || ctx.Err() != nil {
			return
		}
		l.beat.resting()
		if _, err := sleepOrWake(ctx, m.clock, l.wake, pace); err != nil {
			return
		}
	}
}

// watchdog judges, every WatchEvery of wall time, the stall notice of every
// Site from this process, whether or not it holds the Site's Lane: a hung
// holder writes no pass row, so its own pass-end evaluation never runs.
func (m *Manager) watchdog(ctx context.Context) {
	w, ok := m.cfg.OwnerNotices.(Watcher)
	if !ok {
		return
	}
	t := time.NewTicker(m.cfg.WatchEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for _, l := range m.order {
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			w.Watch(wctx, l.site, m.clock.Now())
			cancel()
		}
	}
}
