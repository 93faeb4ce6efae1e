package phonesync

import (
	"fmt"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// PacedError refuses an upload over its key's pace; RetryAfter is how long
// until the next one is taken (the Retry-After of the 429).
type PacedError struct{ RetryAfter time.Duration }

func (e *PacedError) Error() string {
	return fmt.Sprintf("phonesync: uploads of this key come faster than one each few seconds; the next is taken in %d s", e.Seconds())
}

// Seconds is RetryAfter in whole seconds, at least 1.
func (e *PacedError) Seconds() int {
	return max(1, int(math.Ceil(e.RetryAfter.Seconds())))
}

// maxGates bounds the per-key state; past it the idle entries go.
const maxGates = 100000

// gates holds, per Reader (one sync key each), whether an upload is in
// flight and the pace of uploads.
type gates struct {
	pace  time.Duration
	burst int

	mu   sync.Mutex
	keys map[int64]*gate
}

type gate struct {
	busy bool
	lim  *rate.Limiter
}

func newGates(pace time.Duration, burst int) gates {
	return gates{pace: pace, burst: burst, keys: map[int64]*gate{}}
}

// Begin takes the Reader's upload slot at now: ErrBusy while another
// upload of the key is in flight, *PacedError when over the pace. The
// caller calls release when the upload is done.
func (s *Service) Begin(readerID int64) (release func(), err error) {
	return s.gates.begin(readerID, s.cfg.Now())
}

// Uploading reports whether an upload of the Reader's key holds its slot
// now (between Begin and its release).
func (s *Service) Uploading(readerID int64) bool {
	s.gates.mu.Lock()
	defer s.gates.mu.Unlock()
	k := s.gates.keys[readerID]
	return k != nil && k.busy
}

func (g *gates) begin(readerID int64, now time.Time) (func(), error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	k := g.keys[readerID]
	if k == nil {
		if len(g.keys) >= maxGates {
			for id, e := range g.keys {
				if !e.busy {
					delete(g.keys, id)
				}
			}
		}
		k = &gate{lim: rate.NewLimiter(rate.Every(g.pace), g.burst)}
		g.keys[readerID] = k
	}
	if k.busy {
		return nil, ErrBusy
	}
	r := k.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return nil, &PacedError{RetryAfter: d}
	}
	k.busy = true
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			k.busy = false
			g.mu.Unlock()
		})
	}, nil
}
