package startstop_test

import (
	"context"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"mangabookmark/backend/startstop"
)

// run counts its starts and blocks until its context ends.
func run(starts *atomic.Int32) func(context.Context) {
	return func(ctx context.Context) {
		starts.Add(1)
		<-ctx.Done()
	}
}

// A second Start while the loop runs starts nothing, and Stop leaves no
// goroutine behind.
func TestSecondStartIsANoOp(t *testing.T) {
	opts := goleak.IgnoreCurrent()
	var l startstop.Loop
	var starts atomic.Int32
	if !l.Start(context.Background(), run(&starts)) {
		t.Fatal("the first Start reported no start")
	}
	if l.Start(context.Background(), run(&starts)) {
		t.Error("a second Start while running reported a start")
	}
	l.Stop()
	if n := starts.Load(); n != 1 {
		t.Errorf("%d loops ran, want 1", n)
	}
	goleak.VerifyNone(t, opts)
}

// Stop before Start, and Stop twice, return at once.
func TestStopBeforeStartAndTwice(t *testing.T) {
	opts := goleak.IgnoreCurrent()
	var l startstop.Loop
	l.Stop()
	var starts atomic.Int32
	l.Start(context.Background(), run(&starts))
	l.Stop()
	l.Stop()
	goleak.VerifyNone(t, opts)
}

// Stop waits for the function to return, and Start after Stop runs it
// again.
func TestStopWaitsAndStartRunsAgain(t *testing.T) {
	opts := goleak.IgnoreCurrent()
	var l startstop.Loop
	var starts, ends atomic.Int32
	loop := func(ctx context.Context) {
		starts.Add(1)
		<-ctx.Done()
		ends.Add(1)
	}
	for i := 1; i <= 2; i++ {
		if !l.Start(context.Background(), loop) {
			t.Fatalf("Start %d after Stop reported no start", i)
		}
		l.Stop()
		if s, e := starts.Load(), ends.Load(); s != int32(i) || e != int32(i) {
			t.Fatalf("after Stop %d: %d starts, %d ends", i, s, e)
		}
	}
	goleak.VerifyNone(t, opts)
}

// The loop's context ends with the one Start was given, and Stop still
// waits for it and clears the loop.
func TestParentContextEndsTheLoop(t *testing.T) {
	opts := goleak.IgnoreCurrent()
	var l startstop.Loop
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan struct{})
	l.Start(ctx, func(ctx context.Context) {
		<-ctx.Done()
		close(ended)
	})
	cancel()
	<-ended
	l.Stop()
	var starts atomic.Int32
	if !l.Start(context.Background(), run(&starts)) {
		t.Error("Start after the parent ended and Stop reported no start")
	}
	l.Stop()
	goleak.VerifyNone(t, opts)
}
