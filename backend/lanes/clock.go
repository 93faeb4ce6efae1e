package lanes

import (
	"context"
	"time"
)

// Clock is the Lanes' only source of time: every stamp, pace and gap goes
// through it, so tests can drive many simulated hours in seconds
// (lanestest.FakeClock).
type Clock interface {
	// Now is the current time.
	Now() time.Time
	// Sleep waits d, or until ctx ends (returning ctx's error).
	Sleep(ctx context.Context, d time.Duration) error
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// Sleep waits d of wall time or until ctx ends.
func (RealClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// sleepOrWake sleeps d on the clock, returning early when the Lane is woken
// (woken true) or ctx ends (err set). The wake token is consumed.
func sleepOrWake(ctx context.Context, c Clock, wake <-chan struct{}, d time.Duration) (woken bool, err error) {
	select {
	case <-wake:
		return true, nil
	default:
	}
	if d <= 0 {
		return false, ctx.Err()
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	got := make(chan bool, 1)
	go func() {
		select {
		case <-wake:
			got <- true
			cancel()
		case <-wctx.Done():
			got <- false
		}
	}()
	// Sleep's error only says the wait ended early; got and ctx say why.
	_ = c.Sleep(wctx, d)
	cancel()
	if <-got {
		return true, nil
	}
	return false, ctx.Err()
}
