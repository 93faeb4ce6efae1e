package tokenbudget

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// MaxInFlight bounds the requests one token has in the server at once.
// With the write budget's burst of 120, one token could otherwise hold 120
// maximal bodies in memory together (issue 23 item 1, issue 33 W1); past
// the bound a request is refused before its body is read.
const MaxInFlight = 8

// The write budget of one token: a burst, then a steady rate.
const (
	WriteBurst = 120
	WriteRate  = rate.Limit(20) // writes per second
	// writeTokensMax bounds the limiter map; past it the map starts over
	// (every token gets a fresh burst), so unknown tokens cannot grow it.
	writeTokensMax = 10000
)

// Config is the Budget's settings.
type Config struct {
	Now func() time.Time // the write budget's clock; nil: time.Now
}

// Budget counts each token's requests in progress and its writes. A
// token's in-flight entry goes when its last request ends, so the map
// holds only tokens with requests in the server.
type Budget struct {
	now func() time.Time

	mu       sync.Mutex
	inflight map[int64]int
	writes   map[int64]*rate.Limiter
}

// New builds a Budget.
func New(cfg Config) (*Budget, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Budget{now: cfg.Now, inflight: map[int64]int{}, writes: map[int64]*rate.Limiter{}}, nil
}

// Enter takes one of tokenID's MaxInFlight slots and reports whether one
// was free; when it was, the caller calls leave once the request ends.
func (b *Budget) Enter(tokenID int64) (leave func(), ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.inflight[tokenID] >= MaxInFlight {
		return nil, false
	}
	b.inflight[tokenID]++
	var once sync.Once
	return func() { once.Do(func() { b.leave(tokenID) }) }, true
}

func (b *Budget) leave(tokenID int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.inflight[tokenID] <= 1 {
		delete(b.inflight, tokenID)
		return
	}
	b.inflight[tokenID]--
}

// Write takes one write from tokenID's budget and reports whether the
// write may go on.
func (b *Budget) Write(tokenID int64) bool {
	b.mu.Lock()
	lim, ok := b.writes[tokenID]
	if !ok {
		if len(b.writes) > writeTokensMax {
			b.writes = map[int64]*rate.Limiter{}
		}
		lim = rate.NewLimiter(WriteRate, WriteBurst)
		b.writes[tokenID] = lim
	}
	b.mu.Unlock()
	return lim.AllowN(b.now(), 1)
}
