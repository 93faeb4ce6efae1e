// Package lanestest gives tests of the Lanes (and of the packages around
// them) a simulated clock that drives hours of Lane behaviour in seconds.
package lanestest

import (
	"context"
	"sort"
	"sync"
	"time"
)

// FakeClock is a simulated clock satisfying lanes.Clock. Time moves only
// when the test advances it or, in auto mode (SetActors), when every actor
// using the clock is asleep: it then jumps to the earliest wake-up, like a
// discrete-event simulation. Work between sleeps (database calls, parsing)
// takes no simulated time. Safe for concurrent use.
type FakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []*waiter
	actors  int
	changed chan struct{}
}

type waiter struct {
	at   time.Time
	done chan struct{}
}

// NewFakeClock returns a clock at start in manual mode.
func NewFakeClock(start time.Time) *FakeClock {
	return &FakeClock{now: start, changed: make(chan struct{})}
}

// Now returns the simulated time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep blocks until simulated time reaches now+d or ctx ends.
func (c *FakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	c.mu.Lock()
	w := &waiter{at: c.now.Add(d), done: make(chan struct{})}
	c.waiters = append(c.waiters, w)
	c.signalLocked()
	c.autoLocked()
	c.mu.Unlock()
	select {
	case <-w.done:
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		defer c.mu.Unlock()
		select {
		case <-w.done:
			return nil
		default:
		}
		for i, x := range c.waiters {
			if x == w {
				c.waiters = append(c.waiters[:i], c.waiters[i+1:]...)
				break
			}
		}
		c.signalLocked()
		return ctx.Err()
	}
}

// SetActors switches auto mode on for n goroutines sleeping on this clock
// (0 returns to manual mode): whenever n of them sleep at once, time jumps
// to the earliest wake-up.
func (c *FakeClock) SetActors(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.actors = n
	c.autoLocked()
}

// Advance moves time forward by d and wakes every sleeper due by then.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.fireLocked()
}

// AdvanceToNext jumps to the earliest pending wake-up (if any) and fires it.
func (c *FakeClock) AdvanceToNext() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.waiters) == 0 {
		return false
	}
	c.jumpLocked()
	return true
}

// Sleepers is how many goroutines are asleep on the clock.
func (c *FakeClock) Sleepers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

// WaitSleepers blocks until at least n goroutines sleep on the clock or ctx
// ends; it reports whether they did.
func (c *FakeClock) WaitSleepers(ctx context.Context, n int) bool {
	for {
		c.mu.Lock()
		if len(c.waiters) >= n {
			c.mu.Unlock()
			return true
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

func (c *FakeClock) autoLocked() {
	if c.actors > 0 && len(c.waiters) >= c.actors {
		c.jumpLocked()
	}
}

func (c *FakeClock) jumpLocked() {
	sort.Slice(c.waiters, func(i, j int) bool { return c.waiters[i].at.Before(c.waiters[j].at) })
	if first := c.waiters[0].at; first.After(c.now) {
		c.now = first
	}
	c.fireLocked()
}

func (c *FakeClock) fireLocked() {
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if !w.at.After(c.now) {
			close(w.done)
		} else {
			kept = append(kept, w)
		}
	}
	for i := len(kept); i < len(c.waiters); i++ {
		c.waiters[i] = nil
	}
	c.waiters = kept
	c.signalLocked()
}

func (c *FakeClock) signalLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}
