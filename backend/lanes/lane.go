package lanes

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// lane is the state one Site's Lane carries between passes.
type lane struct {
	site *sites.Site
	wake chan struct{}
	log  *slog.Logger

	// passMu makes passes of one Lane strictly sequential within a process
	// (the Lane goroutine and a test's RunPass never overlap).
	passMu      sync.Mutex
	pace        *sites.Pacer // the Site's fetches from this process, across passes (the Registry's)
	lastPrune   time.Time
	floorLogged time.Time
	last        store.Pass          // the pass before, for the wake gate (LeftDue)
	listing     *store.ListingState // nil until the first listing check (listing.go)
	listingNext time.Time           // no listing read before this (after a skipped one)
	releaseSeen time.Time           // the release feed's last hint this Lane has acted on (release.go)

	beat     beatState
	lockLost atomic.Bool // the heartbeat found the lock gone: a pass cut short records lock_lost

	guardMu sync.Mutex
	guard   func(context.Context) error // nil when no lock guards the Lane (RunPass)
}

func (l *lane) setGuard(g func(context.Context) error) {
	l.guardMu.Lock()
	defer l.guardMu.Unlock()
	l.guard = g
}

// stillOwned checks the Lane's lock, when one guards it.
func (l *lane) stillOwned(ctx context.Context) error {
	l.guardMu.Lock()
	g := l.guard
	l.guardMu.Unlock()
	if g == nil {
		return nil
	}
	return g(ctx)
}
