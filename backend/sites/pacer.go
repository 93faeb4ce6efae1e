package sites

import (
	"sync"
	"time"
)

// Pacer spaces one Site's fetches from this process at least a gap apart,
// whoever makes them: the Lane's reads and listing reads, and the imports'
// MangaDex list reads, so the Site sees one pace, not one per reader. The
// Registry holds one per Site. Times come from the caller's clock.
type Pacer struct {
	mu   sync.Mutex
	last time.Time
}

// Take claims a fetch at now when gap has passed since the last one
// claimed (or none was), and returns 0; otherwise it claims nothing and
// returns how long to wait before asking again. A caller loops: wait,
// then Take again, since another reader may have claimed the slot meanwhile.
func (p *Pacer) Take(now time.Time, gap time.Duration) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.last.IsZero() {
		if wait := p.last.Add(gap).Sub(now); wait > 0 {
			return wait
		}
	}
	p.last = now
	return 0
}
