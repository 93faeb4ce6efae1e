package web

import (
	"fmt"
	"math"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// The card's time line (docs/adr/0032-predictions-never-skip-a-read.md),
// two short lines: "checked 4 min ago · next ≤ 1 h", then "releasing ·
// around Thu ± 1 day", or, past twice the interval, why nothing came.
// Days are the Reader's, in now's zone (readerNow: their browser's, else
// UTC), to the day: a window of a day or more needs no hour.

// restOf is the Site's Rest (its Lane's pace), DefaultRest for a Site
// the registry does not know.
func (h *Handler) restOf(site string) time.Duration {
	if s := h.Sites.Get(site); s != nil && s.Rest > 0 {
		return s.Rest
	}
	return sites.DefaultRest
}

// clock is the card's time line input, the Site its freshness is read
// from and the story's status: the lone Series', or the Work's
// (store.Work.Clock).
func (c libraryCard) clock() (store.Clock, string, string) {
	if c.work == nil {
		k := c.items[0].Clock
		k.FailingSite = c.items[0].Site
		return k, c.items[0].Site, c.items[0].Status
	}
	k, site := c.work.Clock()
	return k, site, c.work.Status
}

// withTime sets the card's time line from its clock, read on site, with
// the story's status ("" or "unknown" when never said): Fresh, "checked 4
// min ago · next ≤ 1 h"; and When, the status and either the next
// chapter's window or, past twice the interval, why nothing came. On a
// 360 px phone each fits its line.
func (h *Handler) withTime(li *libraryItem, c store.Clock, site, status string, now time.Time) {
	if c.CheckedAt != nil {
		li.Fresh = "checked " + shortAgo(now, *c.CheckedAt) + " · " + until(now, *c.NextCheckBy(h.restOf(site)))
	}
	if status != "unknown" {
		li.StatusLine = status
	}
	exp := store.Expect(c.Sightings, status)
	switch store.Overdue(exp, status, c.FailingSince, now) {
	case store.OverdueHiatus:
		li.Late = "late"
	case store.OverdueFailing:
		li.Late = "late: " + c.FailingSite + " failing"
		li.LateSince = c.FailingSince.In(now.Location()).Format("2 Jan")
	case store.OverdueQuiet:
		li.Late = "late, no sign anywhere"
	case "":
		if exp != nil {
			li.Expect = window(now, *exp)
		}
	}
}

// shortAgo is how long ago t was, in the card's short units.
func shortAgo(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%d d ago", int(d/(24*time.Hour)))
}

// until is the latest time of the next read, from now, rounded up:
// "next ≤ 1 h"; "due now" when it is already past (the Lane is behind, or
// the read is under way).
func until(now, next time.Time) string {
	d := next.Sub(now)
	up := func(unit time.Duration) int { return int(math.Ceil(float64(d) / float64(unit))) }
	switch {
	case d <= 0:
		return "due now"
	case d <= time.Hour:
		return fmt.Sprintf("next ≤ %d min", up(time.Minute))
	case d <= 48*time.Hour:
		return fmt.Sprintf("next ≤ %d h", up(time.Hour))
	}
	return fmt.Sprintf("next ≤ %d d", up(24*time.Hour))
}

// window is an expected window as a day and a spread, never a countdown:
// "Thu ± 1 day", "today ± 6 h", "14 Dec ± 2 days" (the card says
// "around" before it). Its days are calendar days in now's zone.
func window(now time.Time, e store.Expected) string {
	half := e.To.Sub(e.From) / 2
	mid := e.From.Add(half).In(now.Location())
	var on string
	switch days := dayOf(mid) - dayOf(now); {
	case days == 0:
		on = "today"
	case days == 1:
		on = "tomorrow"
	case days > 1 && days < 7:
		on = mid.Format("Mon")
	default:
		on = mid.Format("2 Jan")
	}
	spread := fmt.Sprintf("%d h", int(math.Round(half.Hours())))
	if half >= 20*time.Hour {
		spread = plural(int(math.Round(half.Hours()/24)), "day")
	}
	return on + " ± " + spread
}

// dayOf numbers t's calendar day in its own zone: consecutive days differ
// by one, whatever a change of clocks did to the day's length.
func dayOf(t time.Time) int {
	y, m, d := t.Date()
	return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / (24 * 3600))
}
