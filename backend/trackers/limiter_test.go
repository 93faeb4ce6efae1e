package trackers

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/lanes/lanestest"
)

var t0 = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

func mustLimiter(t *testing.T, cfg LimiterConfig) *Limiter {
	t.Helper()
	l, err := NewLimiter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// waitAsync starts l.Wait in a goroutine; the channel receives its error.
func waitAsync(ctx context.Context, l *Limiter) <-chan error {
	done := make(chan error, 1)
	go func() { done <- l.Wait(ctx) }()
	return done
}

// mustSleep returns once a goroutine sleeps on clock, and fails the test
// when done answers first (the wait it should have made never happened).
func mustSleep[T any](t *testing.T, clock *lanestest.FakeClock, done <-chan T) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	slept := make(chan bool, 1)
	go func() { slept <- clock.WaitSleepers(ctx, 1) }()
	select {
	case ok := <-slept:
		if !ok {
			t.Fatal("no goroutine slept on the clock")
		}
	case v := <-done:
		t.Fatalf("finished without waiting: %v", v)
	}
}

func mustBlocked(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		t.Fatalf("Wait returned (%v) while it should be held", err)
	default:
	}
}

// TestLimiterPacesAcrossReaders: the 26th request within a minute, whoever
// it is for, waits until the first one's minute has passed, on the clock.
func TestLimiterPacesAcrossReaders(t *testing.T) {
	t.Parallel()
	clock := lanestest.NewFakeClock(t0)
	l := mustLimiter(t, LimiterConfig{Clock: clock})
	ctx := t.Context()
	var started atomic.Int32
	for range DefaultPerMinute {
		if err := l.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		started.Add(1)
	}
	if clock.Sleepers() != 0 || clock.Now() != t0 {
		t.Fatalf("the first %d requests waited", DefaultPerMinute)
	}
	done := waitAsync(ctx, l)
	mustSleep(t, clock, done)
	clock.Advance(59 * time.Second)
	mustBlocked(t, done)
	clock.Advance(time.Second)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := clock.Now().Sub(t0); got != time.Minute {
		t.Fatalf("the 26th started after %s, want 1m", got)
	}
}

// TestLimiterSlidingWindow: requests spread over the minute free their
// slots one by one, a minute after each started.
func TestLimiterSlidingWindow(t *testing.T) {
	t.Parallel()
	clock := lanestest.NewFakeClock(t0)
	l := mustLimiter(t, LimiterConfig{PerMinute: 2, Clock: clock})
	ctx := t.Context()
	_ = l.Wait(ctx)
	clock.Advance(30 * time.Second)
	_ = l.Wait(ctx)
	done := waitAsync(ctx, l)
	mustSleep(t, clock, done)
	clock.Advance(30 * time.Second) // the first start's minute ends
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	done = waitAsync(ctx, l)
	mustSleep(t, clock, done)
	clock.Advance(29 * time.Second)
	mustBlocked(t, done)
	clock.Advance(time.Second) // the second start's minute ends
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestLimiterHold: a Hold (a 429's Retry-After) stops every start until it
// passes, even with slots free; an earlier Hold does not shorten it.
func TestLimiterHold(t *testing.T) {
	t.Parallel()
	clock := lanestest.NewFakeClock(t0)
	l := mustLimiter(t, LimiterConfig{Clock: clock})
	ctx := t.Context()
	l.Hold(t0.Add(30 * time.Second))
	l.Hold(t0.Add(5 * time.Second))
	done := waitAsync(ctx, l)
	mustSleep(t, clock, done)
	clock.Advance(29 * time.Second)
	mustBlocked(t, done)
	clock.Advance(time.Second)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestLimiterWaitEndsWithContext: a canceled wait returns its error and
// takes no slot.
func TestLimiterWaitEndsWithContext(t *testing.T) {
	t.Parallel()
	clock := lanestest.NewFakeClock(t0)
	l := mustLimiter(t, LimiterConfig{PerMinute: 1, Clock: clock})
	_ = l.Wait(t.Context())
	ctx, cancel := context.WithCancel(t.Context())
	done := waitAsync(ctx, l)
	mustSleep(t, clock, done)
	cancel()
	if err := <-done; err == nil {
		t.Fatal("canceled wait returned nil")
	}
	clock.Advance(time.Minute)
	if err := l.Wait(t.Context()); err != nil || clock.Now() != t0.Add(time.Minute) {
		t.Fatalf("slot after cancel: %v at %s", err, clock.Now())
	}
}

func TestNewLimiterValidates(t *testing.T) {
	t.Parallel()
	for _, per := range []int{-1, 91} {
		if _, err := NewLimiter(LimiterConfig{PerMinute: per}); err == nil || !strings.Contains(err.Error(), "PerMinute") {
			t.Errorf("PerMinute %d: %v", per, err)
		}
	}
}

// TestNewLimiterMax: a service with a higher documented limit names its
// own ceiling (the crosswalk's 150 a minute); without one it is 90.
func TestNewLimiterMax(t *testing.T) {
	t.Parallel()
	if _, err := NewLimiter(LimiterConfig{PerMinute: 150, Max: 150}); err != nil {
		t.Errorf("150 under a ceiling of 150: %v", err)
	}
	for _, cfg := range []LimiterConfig{{PerMinute: 151, Max: 150}, {PerMinute: 150}, {PerMinute: -1, Max: 150}} {
		if _, err := NewLimiter(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}
