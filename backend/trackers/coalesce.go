package trackers

import (
	"fmt"
	"sort"
	"sync"
	"time"
)

// DefaultCoalesceWindow is how long the reads of one media are gathered
// into one write.
const DefaultCoalesceWindow = time.Minute

// maxCoalesceWindow is the longest window NewCoalescer accepts.
const maxCoalesceWindow = time.Hour

// DefaultMaxPending is how many media a Coalescer holds at once.
const DefaultMaxPending = 100_000

// PushKey names one push target: a Reader's entry for one media on one
// tracker.
type PushKey struct {
	Reader  int64
	Service string
	MediaID string
}

// Pending is a push a Coalescer gathered: the latest Progress number read
// for its key and when its window opened (the first read).
type Pending struct {
	Key      PushKey
	Progress float64
	First    time.Time
}

// Coalescer turns many reads of one media into one write: the first read
// of a key opens a window; every read in it replaces the number (the
// latest wins: a Reader who lowered their Progress by hand is not pushed
// the old one); when the window has passed, Due hands the push out once.
// It is safe for concurrent use.
type Coalescer struct {
	now    func() time.Time
	window time.Duration
	max    int

	mu      sync.Mutex
	pending map[PushKey]*Pending
}

// CoalescerConfig configures a Coalescer.
type CoalescerConfig struct {
	// Window is how long reads are gathered (0: DefaultCoalesceWindow);
	// negative or over an hour is refused.
	Window time.Duration
	// MaxPending bounds the keys held (0: DefaultMaxPending); negative is
	// refused.
	MaxPending int
	// Now is the time (nil: time.Now).
	Now func() time.Time
}

// NewCoalescer builds a Coalescer, or an error naming the field that
// cannot work.
func NewCoalescer(cfg CoalescerConfig) (*Coalescer, error) {
	switch {
	case cfg.Window < 0 || cfg.Window > maxCoalesceWindow:
		return nil, fmt.Errorf("trackers: new coalescer: CoalescerConfig.Window %s is outside 0..%s", cfg.Window, maxCoalesceWindow)
	case cfg.MaxPending < 0:
		return nil, fmt.Errorf("trackers: new coalescer: CoalescerConfig.MaxPending %d is negative", cfg.MaxPending)
	}
	if cfg.Window == 0 {
		cfg.Window = DefaultCoalesceWindow
	}
	if cfg.MaxPending == 0 {
		cfg.MaxPending = DefaultMaxPending
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Coalescer{now: cfg.Now, window: cfg.Window, max: cfg.MaxPending, pending: map[PushKey]*Pending{}}, nil
}

// Add records a read of key at progress. It reports false, and holds
// nothing, when MaxPending keys are already waiting; the caller keeps the
// push in its own outbox for a later turn.
func (c *Coalescer) Add(key PushKey, progress float64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.pending[key]; p != nil {
		p.Progress = progress
		return true
	}
	if len(c.pending) >= c.max {
		return false
	}
	c.pending[key] = &Pending{Key: key, Progress: progress, First: c.now()}
	return true
}

// Due removes and returns the pushes whose window has passed, oldest
// first.
func (c *Coalescer) Due() []Pending {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	var out []Pending
	for k, p := range c.pending {
		if !now.Before(p.First.Add(c.window)) {
			out = append(out, *p)
			delete(c.pending, k)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].First.Equal(out[j].First) {
			return out[i].First.Before(out[j].First)
		}
		a, b := out[i].Key, out[j].Key
		if a.Reader != b.Reader {
			return a.Reader < b.Reader
		}
		if a.Service != b.Service {
			return a.Service < b.Service
		}
		return a.MediaID < b.MediaID
	})
	return out
}

// Next is when the earliest window closes (false when nothing waits): the
// sender sleeps until then.
func (c *Coalescer) Next() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var next time.Time
	for _, p := range c.pending {
		if at := p.First.Add(c.window); next.IsZero() || at.Before(next) {
			next = at
		}
	}
	return next, !next.IsZero()
}

// Len is how many keys wait.
func (c *Coalescer) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}
