package api

import (
	"testing"
	"time"
)

// TestWriteLimiterBucket pins the per-token budget: a burst of 120 writes,
// then 20 a second, each token on its own.
func TestWriteLimiterBucket(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	l := newWriteLimiter(func() time.Time { return now })
	for i := 0; i < 120; i++ {
		if !l.allow(1) {
			t.Fatalf("write %d of the burst refused", i+1)
		}
	}
	if l.allow(1) {
		t.Fatal("write 121 at the same instant allowed")
	}
	if !l.allow(2) {
		t.Fatal("another token is limited by the first one's writes")
	}
	now = now.Add(40 * time.Millisecond) // 0.8 of a write refilled
	if l.allow(1) {
		t.Fatal("allowed before a whole write refilled")
	}
	now = now.Add(10 * time.Millisecond) // 50ms in all: one write at 20/s
	if !l.allow(1) {
		t.Fatal("refused after one write's worth of refill")
	}
	if l.allow(1) {
		t.Fatal("a second write allowed on one write's refill")
	}
	now = now.Add(time.Hour) // refill stops at the burst
	for i := 0; i < 120; i++ {
		if !l.allow(1) {
			t.Fatalf("after an idle hour, write %d refused", i+1)
		}
	}
	if l.allow(1) {
		t.Fatal("an idle hour saved more than the burst")
	}
}
