package lanes

import (
	"testing"

	"mangabookmark/backend/sites"
)

// The pass counts at most gapCountCap Series: the count must reach the
// first value at which the gap is the floor, or a Site just past the cap
// would get a wrong (too long) gap.
func TestGapCountCapReachesTheFloor(t *testing.T) {
	s := &sites.Site{Gap: sites.DefaultGap}
	if _, floored := EffectiveGap(s, gapCountCap); !floored {
		t.Errorf("gap at the count cap %d is not the floor", gapCountCap)
	}
	if gapAt := func(n int) bool { _, f := EffectiveGap(s, n); return f }; gapAt(gapCountCap - 1) {
		t.Errorf("the floor already holds at %d: the cap %d counts more than the pass needs", gapCountCap-1, gapCountCap)
	}
}
