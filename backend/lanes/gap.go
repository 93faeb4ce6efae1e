package lanes

import (
	"time"

	"mangabookmark/backend/sites"
)

// gapCountCap is the most Series a pass needs to count: past one hour /
// GapFloor (3600) the effective gap is the floor whatever the count, so
// the count stops there and costs the same at 10k and at 1M Series.
var gapCountCap = int(time.Hour/GapFloor) + 1

// EffectiveGap is the Lane's wait between fetches: the Site's Gap, or one
// hour shared among its eligible Series and its listing reads when that is
// shorter, never below GapFloor. floored reports that the floor engaged
// (the Site has more Series than one hour can poll at one per GapFloor).
// The listing reads get their own share: a Lane whose hour is full of Rest
// reads would otherwise push every Rest read one gap later per listing
// read, and fall further behind each hour (ADR 0015).
func EffectiveGap(s *sites.Site, eligible int) (gap time.Duration, floored bool) {
	gap = s.Gap
	if gap <= 0 {
		gap = sites.DefaultGap
	}
	if eligible > 0 {
		if share := time.Hour / time.Duration(eligible+ListingSlots(s)); share < gap {
			gap = share
		}
	}
	if gap < GapFloor {
		return GapFloor, true
	}
	return gap, false
}

// passLimit is how many Series one pass reads at most: what fits in span at
// the effective gap. A pass stops there and the next begins at once, so
// every pass row reports behind-by fresh and a Forced Poll or pause is seen
// between passes; Series left over stay unstamped and due.
func passLimit(span, gap time.Duration) int {
	if gap <= 0 {
		gap = GapFloor
	}
	n := int(span / gap)
	if n < 1 {
		n = 1
	}
	return n
}

func clampPace(d time.Duration) time.Duration {
	if d < 0 {
		return 0
	}
	if d > sites.DefaultRest {
		return sites.DefaultRest
	}
	return d
}

// ListingSlots is how many listing reads an hour the Site's Lane makes
// (page 1 every ListingEvery; page 2 only when page 1 overflows), zero
// without a listing.
func ListingSlots(s *sites.Site) int {
	if s.ListingEvery <= 0 || s.ListerOf() == nil {
		return 0
	}
	return int((time.Hour + s.ListingEvery - 1) / s.ListingEvery)
}
