package admin_test

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"

	"mangabookmark/backend/admin"
)

// Before Start, a read of counts older than CountsTTL recounts in line:
// the next read sees a Series added since.
func TestCountsRecountInLineBeforeStart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	before := e.series(t, "mangapill")
	e.addSeries(t, "mangapill", "900")
	if got := e.series(t, "mangapill"); got != before {
		t.Fatalf("fresh counts moved within the TTL: %d, want %d", got, before)
	}
	e.clock.Advance(admin.CountsTTL)
	if got := e.series(t, "mangapill"); got != before+1 {
		t.Fatalf("after the TTL: %d Series, want %d", got, before+1)
	}
}

// Once started, a stale read answers the last count at once and the
// background recounter brings the new one; Stop ends it.
func TestCountsRecountInTheBackgroundOnceStarted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	done := make(chan struct{}, 4)
	e.svc.OnRecount(func() { done <- struct{}{} })
	e.svc.Start(context.Background())
	e.svc.Start(context.Background()) // a no-op: no second recounter
	t.Cleanup(e.svc.Stop)
	before := e.series(t, "mangapill")
	e.addSeries(t, "mangapill", "900")
	e.clock.Advance(admin.CountsTTL)
	if got := e.series(t, "mangapill"); got != before {
		t.Fatalf("a stale read waited for the recount: %d, want the last count %d", got, before)
	}
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("no background recount within a minute")
	}
	if got := e.series(t, "mangapill"); got != before+1 {
		t.Fatalf("after the recount: %d Series, want %d", got, before+1)
	}
}

// Stop ends the recounter's goroutine and waits for it, even with a
// recount asked for; Start twice, Stop twice and Stop without Start are
// no-ops. Not parallel, so no other test's goroutines come and go during
// the check.
func TestStopLeavesNoGoroutines(t *testing.T) {
	e := newEnv(t)
	e.svc.Stop() // never started
	opts := goleak.IgnoreCurrent()
	done := make(chan struct{}, 4)
	e.svc.OnRecount(func() { done <- struct{}{} })
	e.svc.Start(context.Background())
	e.svc.Start(context.Background()) // a no-op: no second recounter
	e.series(t, "kagane")
	e.clock.Advance(admin.CountsTTL)
	e.series(t, "kagane")
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("no background recount within a minute")
	}
	e.svc.Stop()
	e.svc.Stop()
	goleak.VerifyNone(t, opts)
	// A stopped Service still answers, recounting in line.
	e.addSeries(t, "kagane", "901")
	before := e.series(t, "kagane")
	e.clock.Advance(admin.CountsTTL)
	if got := e.series(t, "kagane"); got != before+1 {
		t.Fatalf("a stopped Service served stale counts: %d, want %d", got, before+1)
	}
}
