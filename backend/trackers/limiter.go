package trackers

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// DefaultPerMinute is the pace of one tracker per process: AniList
// documents 90 requests a minute but serves 30 "in a degraded state", so 25
// leaves room for its burst limiter. The pace is per process: replicas
// together may pass it, and then their 429s are waited out.
const DefaultPerMinute = 25

// maxPerMinute is the highest pace NewLimiter accepts unless
// LimiterConfig.Max says otherwise (AniList's documented, undegraded
// limit).
const maxPerMinute = 90

// Clock is the limiter's time: Now and a Sleep that ends early with ctx.
// lanestest.FakeClock satisfies it, so a test drives minutes in no time.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// WallClock is the wall clock: a Clock for production.
type WallClock struct{}

// Now is time.Now.
func (WallClock) Now() time.Time { return time.Now() }

// Sleep waits d of wall time, or until ctx ends (ctx's error).
func (WallClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Limiter paces one tracker for the whole process: at most PerMinute
// requests start in any sliding minute, whichever Reader they are for, and
// none start before a Hold (a 429's Retry-After) has passed. It is safe
// for concurrent use.
type Limiter struct {
	clock  Clock
	per    int
	window time.Duration

	mu     sync.Mutex
	starts []time.Time // the last per request starts, oldest first
	until  time.Time   // no start before this (Hold)
}

// LimiterConfig configures a Limiter.
type LimiterConfig struct {
	// PerMinute is the most requests started in any minute (0:
	// DefaultPerMinute); negative or over Max is refused.
	PerMinute int
	// Max is the highest PerMinute accepted (0: 90, AniList's documented
	// limit); a service with a higher documented limit names its own.
	Max int
	// Clock is the time the limiter waits on (nil: the wall clock).
	Clock Clock
}

// NewLimiter builds a limiter, or an error naming the field that cannot
// work.
func NewLimiter(cfg LimiterConfig) (*Limiter, error) {
	ceiling := maxPerMinute
	if cfg.Max > 0 {
		ceiling = cfg.Max
	}
	if cfg.PerMinute < 0 || cfg.PerMinute > ceiling {
		return nil, fmt.Errorf("trackers: new limiter: LimiterConfig.PerMinute %d is outside 0..%d", cfg.PerMinute, ceiling)
	}
	if cfg.PerMinute == 0 {
		cfg.PerMinute = DefaultPerMinute
	}
	if cfg.Clock == nil {
		cfg.Clock = WallClock{}
	}
	return &Limiter{clock: cfg.Clock, per: cfg.PerMinute, window: time.Minute}, nil
}

// Now is the limiter's clock's time.
func (l *Limiter) Now() time.Time { return l.clock.Now() }

// Wait blocks until a request may start, and counts it as started. It
// returns ctx's error when ctx ends first (and then counts nothing).
func (l *Limiter) Wait(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		wait := l.take()
		if wait <= 0 {
			return nil
		}
		if err := l.clock.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// take starts a request now and returns 0, or returns how long to wait
// before asking again.
func (l *Limiter) take() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	for len(l.starts) > 0 && !l.starts[0].Add(l.window).After(now) {
		l.starts = l.starts[1:]
	}
	if now.Before(l.until) {
		return l.until.Sub(now)
	}
	if len(l.starts) >= l.per {
		return l.starts[0].Add(l.window).Sub(now)
	}
	l.starts = append(l.starts, now)
	return 0
}

// Hold stops every start until t (a 429's Retry-After, a spent
// X-RateLimit-Remaining's reset). An earlier t than a hold already set
// changes nothing.
func (l *Limiter) Hold(t time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if t.After(l.until) {
		l.until = t
	}
}
