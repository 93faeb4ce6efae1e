package tokenbudget_test

import (
	"testing"
	"time"

	"mangabookmark/backend/tokenbudget"
)

// TestWriteBudgetBucket pins the per-Reader budget: a burst of 120
// writes, then 20 a second, each Reader on their own.
func TestWriteBudgetBucket(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	l, err := tokenbudget.New(tokenbudget.Config{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 120; i++ {
		if !l.Write(1) {
			t.Fatalf("write %d of the burst refused", i+1)
		}
	}
	if l.Write(1) {
		t.Fatal("write 121 at the same instant allowed")
	}
	if !l.Write(2) {
		t.Fatal("another Reader is limited by the first one's writes")
	}
	now = now.Add(40 * time.Millisecond) // 0.8 of a write refilled
	if l.Write(1) {
		t.Fatal("allowed before a whole write refilled")
	}
	now = now.Add(10 * time.Millisecond) // 50ms in all: one write at 20/s
	if !l.Write(1) {
		t.Fatal("refused after one write's worth of refill")
	}
	if l.Write(1) {
		t.Fatal("a second write allowed on one write's refill")
	}
	now = now.Add(time.Hour) // refill stops at the burst
	for i := 0; i < 120; i++ {
		if !l.Write(1) {
			t.Fatalf("after an idle hour, write %d refused", i+1)
		}
	}
	if l.Write(1) {
		t.Fatal("an idle hour saved more than the burst")
	}
}

// TestInFlightSlots pins the in-flight bound: MaxInFlight slots a Reader,
// each Reader on their own, a slot freed once however often leave is called.
func TestInFlightSlots(t *testing.T) {
	t.Parallel()
	b, err := tokenbudget.New(tokenbudget.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var leaves []func()
	for i := 0; i < tokenbudget.MaxInFlight; i++ {
		leave, ok := b.Enter(1)
		if !ok {
			t.Fatalf("slot %d refused", i+1)
		}
		leaves = append(leaves, leave)
	}
	if _, ok := b.Enter(1); ok {
		t.Fatal("a slot past MaxInFlight given")
	}
	if _, ok := b.Enter(2); !ok {
		t.Fatal("another Reader is held back by the first one's requests")
	}
	leaves[0]()
	leaves[0]() // a second call frees nothing more
	if _, ok := b.Enter(1); !ok {
		t.Fatal("no slot after one left")
	}
	if _, ok := b.Enter(1); ok {
		t.Fatal("a double leave freed two slots")
	}
}
