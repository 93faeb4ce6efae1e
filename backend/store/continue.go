package store

import (
	"math"
	"strconv"
)

// Continue is where a card's Continue leads: the chapter right after the
// Reader's Progress, never one past chapters they have not read.
type Continue struct {
	Number string // the chapter to read next
	URL    string // its page; the Series' page when Pick
	// Pick: we never saw that chapter's page (a read between two of ours
	// brought several chapters, and a Lane keeps only the newest), so
	// Continue opens the Series on its Site and names the chapter to pick.
	Pick bool
}

// ContinueAfter is Continue after Progress progress, given the first
// chapter past it whose page a Lane saw (next, nextURL; "" when none)
// and the Series' page. The next chapter is the first whole number past
// Progress (12.5 → 13, 12 → 13); a seen chapter up to it (12.5 after 12,
// or 13 itself) is the way on; a seen chapter further on (15 after 12)
// is not, since 13 and 14 would be skipped: the Series page is, naming
// 13. A Progress that is not a number (none) gives the seen chapter, else
// the Series page with no number.
func ContinueAfter(progress, next, nextURL, seriesURL string) Continue {
	p, err := strconv.ParseFloat(progress, 64)
	if err != nil || math.IsInf(p, 0) || math.IsNaN(p) {
		if nextURL != "" {
			return Continue{Number: next, URL: nextURL}
		}
		return Continue{URL: seriesURL, Pick: true}
	}
	after := math.Floor(p) + 1
	if n, err := strconv.ParseFloat(next, 64); err == nil && nextURL != "" && n > p && n <= after {
		return Continue{Number: next, URL: nextURL}
	}
	return Continue{Number: strconv.FormatFloat(after, 'f', -1, 64), URL: seriesURL, Pick: true}
}
