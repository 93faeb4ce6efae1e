package lanestest

import (
	"context"
	"time"
)

// ScaledClock runs simulated time faster than the wall clock by a fixed
// factor (1000: a 10s gap takes 10ms). Unlike FakeClock it needs no driving,
// so it suits tests of several independent goroutines or processes (two
// Managers, hostile Sites) where only order and bounds matter, not exact
// arithmetic. Safe for concurrent use.
type ScaledClock struct {
	start     time.Time
	realStart time.Time
	factor    float64
}

// NewScaledClock returns a clock at start running factor times wall speed.
func NewScaledClock(start time.Time, factor float64) *ScaledClock {
	if factor <= 0 {
		factor = 1
	}
	return &ScaledClock{start: start, realStart: time.Now(), factor: factor}
}

// Now returns the simulated time.
func (c *ScaledClock) Now() time.Time {
	return c.start.Add(time.Duration(float64(time.Since(c.realStart)) * c.factor))
}

// Sleep waits d of simulated time (d/factor of wall time) or until ctx ends.
func (c *ScaledClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(time.Duration(float64(d) / c.factor))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
