package lanes

import (
	"sync"
	"time"
)

// browserFlag is the shared browser-lost flag: an unreachable sidecar seen
// by one browser Lane gates every browser Lane for BrowserLostWindow, then
// decays so the Lanes probe again. It is process state, not stored.
type browserFlag struct {
	mu     sync.Mutex
	lostAt time.Time
}

// lost raises the flag at now.
func (f *browserFlag) lost(now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lostAt = now
}

// downUntil returns when the gate opens, and whether it is closed at now.
func (f *browserFlag) downUntil(now time.Time) (time.Time, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.lostAt.IsZero() {
		return time.Time{}, false
	}
	until := f.lostAt.Add(BrowserLostWindow)
	return until, now.Before(until)
}
