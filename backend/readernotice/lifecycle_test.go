package readernotice_test

import (
	"context"
	"testing"

	"go.uber.org/goleak"
)

// Stop before Start returns at once; a second Start runs no second
// sender; Stop ends the one that runs; none leaves a goroutine. Not
// parallel, so no other test's goroutines come and go during the check.
func TestStartTwiceAndStopLeaveNoGoroutines(t *testing.T) {
	w := newWorld(t)
	w.svc.Stop()
	opts := goleak.IgnoreCurrent()
	w.svc.Start(context.Background())
	w.svc.Start(context.Background())
	w.svc.Stop()
	w.svc.Stop()
	goleak.VerifyNone(t, opts)
}
