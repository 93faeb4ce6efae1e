package config

import (
	"errors"
	"testing"
)

// removedKnobs is written out here from the product spec's list of deleted
// pace settings, on purpose not read from RemovedPaceKnobs: a knob dropped
// from the list the code checks must fail this test.
var removedKnobs = []string{
	"LATEST_CHAPTER_POLL_COOLDOWN",
	"LATEST_CHAPTER_POLL_BROWSER_COOLDOWN",
	"LATEST_CHAPTER_POLL_INTERVAL",
	"LATEST_CHAPTER_POLL_BATCH",
	"LATEST_CHAPTER_POLL_STAGGER",
}

func lookupIn(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// A removed knob is refused when present at all: set to a value, to "" or
// to blanks, and the error names it.
func TestRemovedKnobsRefusedWhenPresent(t *testing.T) {
	t.Parallel()
	for _, knob := range removedKnobs {
		for _, v := range []string{"30s", "", "  "} {
			_, err := LoadLookup(lookupIn(map[string]string{knob: v}))
			var ce *Error
			if !errors.As(err, &ce) || ce.Var != knob {
				t.Errorf("%s=%q: error %v, want one naming %s", knob, v, err, knob)
			}
		}
	}
	// The one poll switch that stays is not refused when empty.
	if _, err := LoadLookup(lookupIn(map[string]string{"LATEST_CHAPTER_POLL_ENABLED": ""})); err != nil {
		t.Errorf("LATEST_CHAPTER_POLL_ENABLED= refused: %v", err)
	}
	if _, err := LoadLookup(lookupIn(map[string]string{})); err != nil {
		t.Errorf("empty environment refused: %v", err)
	}
}
