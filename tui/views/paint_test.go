package views

import (
	"testing"

	"mangabookmark/client"
)

// The console paints a state red exactly when client.IsFault says so: the
// fault set has one owner (the pages read the same one).
func TestStatePaintFollowsTheFaultSet(t *testing.T) {
	t.Parallel()
	for _, st := range client.States {
		if (StatePaint(st) == PaintFault) != client.IsFault(st) {
			t.Errorf("StatePaint(%q) = %v, but IsFault = %v", st, StatePaint(st), client.IsFault(st))
		}
	}
}
