package lanes

import (
	"context"
	"sync"
	"time"

	"mangabookmark/backend/store"
)

// beatState is what the heartbeat says about one Lane: the pass in flight
// and when the Lane goroutine last made progress. The Lane goroutine
// updates it; the heartbeat goroutine reads it.
type beatState struct {
	mu     sync.Mutex
	pass   *store.LivePass
	stepAt time.Time // wall time of the Lane's last step; zero while it waits between passes
	stuck  bool      // the stuck warning was logged for the current step
}

// progress notes a step of the Lane goroutine and the reads of its pass.
func (b *beatState) progress(checked int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stepAt, b.stuck = time.Now(), false
	if b.pass != nil {
		b.pass.Checked = checked
	}
}

// setPass starts (or, with nil, ends) the pass in flight.
func (b *beatState) setPass(p *store.LivePass) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pass, b.stepAt, b.stuck = p, time.Now(), false
}

// resting notes that the Lane waits between passes (a step of no length).
func (b *beatState) resting() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stepAt = time.Time{}
}

// read returns a copy of the pass in flight and how long the current step
// has lasted (zero while resting).
func (b *beatState) read() (*store.LivePass, time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var p *store.LivePass
	if b.pass != nil {
		c := *b.pass
		p = &c
	}
	if b.stepAt.IsZero() {
		return p, 0
	}
	return p, time.Since(b.stepAt)
}

// stuckAfter is the longest one step of a healthy Lane can take: a read
// (ReadTimeout), the gap before it and a heartbeat's slack. A Lane
// goroutine silent for longer is stuck, and its heartbeat stops, so the
// watchdog and other processes see it.
func (m *Manager) stuckAfter(l *lane) time.Duration {
	return m.cfg.ReadTimeout + max(l.site.Gap, time.Minute) + m.cfg.BeatEvery
}

// beat writes the Lane's heartbeat (lane_holders): this process, the
// Lane's time, the pass in flight. A Lane goroutine stuck in one step gets
// no heartbeat: a beat from a healthy side goroutine would hide the stall.
func (m *Manager) beat(ctx context.Context, l *lane) {
	pass, busy := l.beat.read()
	if busy > m.stuckAfter(l) {
		l.beat.mu.Lock()
		first := !l.beat.stuck
		l.beat.stuck = true
		l.beat.mu.Unlock()
		if first {
			l.log.Error("Lane stuck in one step; heartbeat withheld", "step", busy.Round(time.Second).String())
		}
		return
	}
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := m.cfg.Store.BeatLane(bctx, l.site.Name, m.id, m.clock.Now(), pass); err != nil {
		l.log.Warn("cannot write the Lane heartbeat", "error", err)
	}
}

// heartbeat beats every BeatEvery of wall time while this process holds
// the Lane, checking the lock before each beat. It returns when ctx ends or
// the lock is lost (the caller then stops the Lane).
func (m *Manager) heartbeat(ctx context.Context, l *lane, check func(context.Context) error) {
	t := time.NewTicker(m.cfg.BeatEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := check(cctx)
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				l.lockLost.Store(true)
				l.log.Warn("Lane lock lost between passes", "error", err)
			}
			return
		}
		m.beat(ctx, l)
	}
}

// startPass marks the pass in flight and beats at once, so the console sees
// it from its first read.
func (m *Manager) startPass(ctx context.Context, l *lane, res *store.Pass) {
	l.beat.setPass(&store.LivePass{StartedAt: res.StartedAt, Due: res.Due})
	m.beat(ctx, l)
}
