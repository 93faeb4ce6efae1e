package api

import (
	"sync"
	"time"
)

// writeLimiter is a per-token token bucket for write requests, so one
// runaway client cannot monopolise the database.
type writeLimiter struct {
	mu      sync.Mutex
	now     func() time.Time
	rate    float64 // tokens per second
	burst   float64
	buckets map[int64]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newWriteLimiter(now func() time.Time) *writeLimiter {
	return &writeLimiter{now: now, rate: 20, burst: 120, buckets: map[int64]*bucket{}}
}

// allow takes one token for tokenID and reports whether the write may go on.
func (l *writeLimiter) allow(tokenID int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b, ok := l.buckets[tokenID]
	if !ok {
		if len(l.buckets) > 10000 {
			l.buckets = map[int64]*bucket{}
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[tokenID] = b
	}
	b.tokens += now.Sub(b.last).Seconds() * l.rate
	if b.tokens > l.burst {
		b.tokens = l.burst
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
