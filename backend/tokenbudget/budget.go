package tokenbudget

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// MaxInFlight bounds the requests one Reader has in the server at once,
// whichever of their tokens and sessions they come by. With the write
// budget's burst of 120, one Reader could otherwise hold 120 maximal
// bodies in memory together (issue 23 item 1, issue 33 W1); past the
// bound a request is refused before its body is read. It is per Reader,
// not per token, since every Discord login mints a token (issue 41 B5-1).
const MaxInFlight = 8

// The write budget of one Reader: a burst, then a steady rate.
const (
	WriteBurst = 120
	WriteRate  = rate.Limit(20) // writes per second
	// writeReadersMax bounds the limiter map; past it the map starts over
	// (every Reader gets a fresh burst), so it cannot grow without bound.
	writeReadersMax = 10000
)

// Config is the Budget's settings.
type Config struct {
	Now func() time.Time // the write budget's clock; nil: time.Now
}

// Budget counts each Reader's requests in progress and their writes, keyed
// on the Reader's id (all their tokens and sessions share one budget). A
// Reader's in-flight entry goes when their last request ends, so the map
// holds only Readers with requests in the server.
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

// Enter takes one of the Reader's MaxInFlight slots and reports whether one
// was free; when it was, the caller calls leave once the request ends.
func (b *Budget) Enter(readerID int64) (leave func(), ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.inflight[readerID] >= MaxInFlight {
		return nil, false
	}
	b.inflight[readerID]++
	var once sync.Once
	return func() { once.Do(func() { b.leave(readerID) }) }, true
}

func (b *Budget) leave(readerID int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.inflight[readerID] <= 1 {
		delete(b.inflight, readerID)
		return
	}
	b.inflight[readerID]--
}

// Write takes one write from the Reader's budget and reports whether the
// write may go on.
func (b *Budget) Write(readerID int64) bool {
	b.mu.Lock()
	lim, ok := b.writes[readerID]
	if !ok {
		if len(b.writes) > writeReadersMax {
			b.writes = map[int64]*rate.Limiter{}
		}
		lim = rate.NewLimiter(WriteRate, WriteBurst)
		b.writes[readerID] = lim
	}
	b.mu.Unlock()
	return lim.AllowN(b.now(), 1)
}
