package client_test

import (
	"slices"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/client"
)

// TestStatesAreTheLanesStates holds client.States to the one list in
// backend/lanes, word for word and in order, and checks that lanes.State
// never answers a word outside it.
func TestStatesAreTheLanesStates(t *testing.T) {
	t.Parallel()
	if len(lanes.States) == 0 || !slices.Equal(client.States, lanes.States) {
		t.Fatalf("client.States = %v, want backend/lanes' States %v", client.States, lanes.States)
	}
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	later := now.Add(time.Hour)
	seen := map[string]bool{}
	for bits := 0; bits < 1<<8; bits++ {
		b := func(i int) bool { return bits&(1<<i) != 0 }
		w := func(i int) *time.Time {
			if b(i) {
				return &later
			}
			return nil
		}
		in := lanes.StateInput{Now: now, Enabled: !b(0), Browser: b(1), NoBrowser: b(2), BrowserDownUntil: w(3),
			PausedUntil: w(4), RefuseUntil: w(5), Urgent: b(6)}
		if b(7) {
			in.Due = 1
		}
		st := lanes.State(in)
		if !slices.Contains(client.States, st) {
			t.Errorf("lanes.State(%+v) = %q, not in client.States", in, st)
		}
		seen[st] = true
	}
	for _, st := range client.States {
		if !seen[st] {
			t.Errorf("no input reaches state %q", st)
		}
	}
}

// TestFaultStatesAreStates: the fault set names only Lane states, and
// IsFault answers it.
func TestFaultStatesAreStates(t *testing.T) {
	t.Parallel()
	for _, f := range client.FaultStates {
		if !slices.Contains(client.States, f) {
			t.Errorf("fault state %q is not a Lane state", f)
		}
	}
	for _, st := range client.States {
		if client.IsFault(st) != slices.Contains(client.FaultStates, st) {
			t.Errorf("IsFault(%q) disagrees with FaultStates", st)
		}
	}
	if client.IsFault("") || client.IsFault("running ") {
		t.Error("IsFault accepts a word that is no state")
	}
}
