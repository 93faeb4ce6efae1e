package lanestest

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestFakeClockAutoAdvancesWhenAllActorsSleep(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewFakeClock(t0)
	c.SetActors(2)
	ctx := context.Background()
	var mu sync.Mutex
	var log []string
	var wg sync.WaitGroup
	for _, a := range []struct {
		name string
		d    time.Duration
	}{{"a", 3 * time.Second}, {"b", 5 * time.Second}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 3; i++ {
				_ = c.Sleep(ctx, a.d)
				mu.Lock()
				log = append(log, a.name+c.Now().Sub(t0).String())
				mu.Unlock()
			}
			c.SetActors(1) // one actor left
		}()
	}
	wg.Wait()
	// a wakes at 3,6,9; b at 5,10,15. Time never runs ahead of a sleeper.
	want := map[string]bool{"a3s": true, "a6s": true, "a9s": true, "b5s": true, "b10s": true, "b15s": true}
	if len(log) != 6 {
		t.Fatalf("log %v", log)
	}
	for _, l := range log {
		if !want[l] {
			t.Fatalf("unexpected wake %s in %v", l, log)
		}
	}
}

func TestFakeClockManualAndCancel(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewFakeClock(t0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Sleep(ctx, time.Hour) }()
	if !c.WaitSleepers(context.Background(), 1) {
		t.Fatal("no sleeper")
	}
	c.Advance(30 * time.Minute)
	select {
	case err := <-done:
		t.Fatalf("woke early: %v", err)
	default:
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("cancelled sleep returned nil")
	}
	if c.Sleepers() != 0 {
		t.Fatal("cancelled sleeper still registered")
	}
	go func() { done <- c.Sleep(context.Background(), time.Minute) }()
	c.WaitSleepers(context.Background(), 1)
	if !c.AdvanceToNext() || <-done != nil || !c.Now().Equal(t0.Add(31*time.Minute)) {
		t.Fatalf("advance to next: now %v", c.Now())
	}
}
