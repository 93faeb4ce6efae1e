package api

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Write budget per token: a burst, then a steady rate.
const (
	writeRate  = rate.Limit(20) // writes per second
	writeBurst = 120
	// writeTokensMax bounds the limiter map; past it the map starts over
	// (every token gets a fresh burst), so unknown tokens cannot grow it.
	writeTokensMax = 10000
)

// writeLimiter gives each token its own rate.Limiter for write requests,
// so one runaway client cannot monopolise the database. Time comes from
// the server's clock, so tests drive it.
type writeLimiter struct {
	mu     sync.Mutex
	now    func() time.Time
	tokens map[int64]*rate.Limiter
}

func newWriteLimiter(now func() time.Time) *writeLimiter {
	return &writeLimiter{now: now, tokens: map[int64]*rate.Limiter{}}
}

// allow takes one write from tokenID's budget and reports whether the
// write may go on.
func (l *writeLimiter) allow(tokenID int64) bool {
	l.mu.Lock()
	lim, ok := l.tokens[tokenID]
	if !ok {
		if len(l.tokens) > writeTokensMax {
			l.tokens = map[int64]*rate.Limiter{}
		}
		lim = rate.NewLimiter(writeRate, writeBurst)
		l.tokens[tokenID] = lim
	}
	l.mu.Unlock()
	return lim.AllowN(l.now(), 1)
}
