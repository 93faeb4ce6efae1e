package store

import (
	"slices"
	"strconv"
	"time"
)

// The card's time line (docs/adr/0032-predictions-never-skip-a-read.md):
// when we last read a story and the latest time we will read it again
// (freshness), when its next chapter usually comes (expected) and, past
// twice that interval, why nothing came (overdue). Every value is worked
// out from what is already stored: the Lane's stamps on the series row
// and the Chapter Events. None of it feeds the due query: ADR-0010's
// cutoff stays the only rate authority, so a guess never makes a Series
// read less often.

// Clock is what one story's time line is worked out from.
type Clock struct {
	CheckedAt   *time.Time // the Lane's last read (series.latest_checked_at); nil: never read
	ForcePollAt *time.Time // a Forced Poll, pending when later than CheckedAt
	Slow        bool       // a slow Series rests SlowRest (slow.go)
	// Sightings are the story's chapter sightings, newest first: the
	// first time any member showed each chapter number, to the minute,
	// one per minute (a batch of chapters is one release), at most
	// MaxSightings (sightingsSQL).
	Sightings []time.Time
	// FailingSince is the oldest failure row of the story's members (the
	// Series' own for a lone one); nil when none fails. FailingSite is
	// that member's Site (Work.Clock; the caller's for a lone Series).
	FailingSince *time.Time
	FailingSite  string
}

// MaxSightings is how many recent sightings the expected interval is the
// median of (MaxSightings-1 intervals): recent enough to follow a change
// of schedule, enough that one hiatus does not move the median.
const MaxSightings = 11

// NextCheckBy is the latest time the Lane will read the story again, as
// the due query reckons it (due.go): the last read plus the Site's Rest
// (SlowRest for a slow Series), or a pending Forced Poll when earlier.
// Nil when the story was never read: it is due now, and the card says
// "checking…". A Lane behind its work reads it later than this; the card
// then says the read is due.
func (c Clock) NextCheckBy(rest time.Duration) *time.Time {
	if c.CheckedAt == nil {
		return nil
	}
	if c.Slow {
		rest = slowRest(rest)
	}
	next := c.CheckedAt.Add(rest)
	if f := c.ForcePollAt; f != nil && f.After(*c.CheckedAt) && f.Before(next) {
		next = *f
	}
	return &next
}

// Expected is a story's next chapter as a window, never a countdown.
type Expected struct {
	From, To time.Time     // the window
	Last     time.Time     // the newest sighting
	Interval time.Duration // the median of the recent intervals
}

// Expect is the window the next chapter is expected in, from sightings
// (newest first, Clock.Sightings): the newest plus the median of the
// intervals between neighbouring sightings, give or take their median
// absolute deviation, at least a quarter of the interval up to a day, at
// most half the interval. Nil with fewer than three sightings (two
// intervals say nothing of a schedule) and for a story whose status says
// it ended (completed, cancelled).
func Expect(sightings []time.Time, status string) *Expected {
	if len(sightings) < 3 || status == "completed" || status == "cancelled" {
		return nil
	}
	s := sightings[:min(len(sightings), MaxSightings)]
	gaps := make([]time.Duration, 0, len(s)-1)
	for i := 1; i < len(s); i++ {
		if g := s[i-1].Sub(s[i]); g > 0 {
			gaps = append(gaps, g)
		}
	}
	if len(gaps) < 2 {
		return nil
	}
	med := median(gaps)
	dev := make([]time.Duration, len(gaps))
	for i, g := range gaps {
		dev[i] = max(g-med, med-g)
	}
	half := max(median(dev), min(med/4, 24*time.Hour))
	half = min(half, med/2)
	at := s[0].Add(med)
	return &Expected{From: at.Add(-half), To: at.Add(half), Last: s[0], Interval: med}
}

// median is the middle of ds (the mean of the two middles for an even
// count); ds is left as it was.
func median(ds []time.Duration) time.Duration {
	c := slices.Clone(ds)
	slices.Sort(c)
	n := len(c)
	if n%2 == 1 {
		return c[n/2]
	}
	return c[n/2-1] + (c[n/2]-c[n/2-1])/2
}

// The overdue causes (Overdue), as the API names them.
const (
	OverdueHiatus  = "hiatus"  // the status says the story is on hiatus
	OverdueFailing = "failing" // a member has failed for over a day
	OverdueQuiet   = "quiet"   // no sign anywhere
)

// Overdue names why a story with an expected window (exp) has shown
// nothing for over twice its interval at now: its status says hiatus; else
// a member has been failing for over a day (FailingShownAfter, as a Work
// shows it); else no sign anywhere. "" when it is not overdue or nothing
// is expected.
func Overdue(exp *Expected, status string, failingSince *time.Time, now time.Time) string {
	if exp == nil || !now.After(exp.Last.Add(2*exp.Interval)) {
		return ""
	}
	switch {
	case status == "hiatus":
		return OverdueHiatus
	case failingSince != nil && !failingSince.After(now.Add(-FailingShownAfter)):
		return OverdueFailing
	}
	return OverdueQuiet
}

// sightingsSQL is the sightings (Clock.Sightings) of the stories in
// members, a relation of (k, site, series_id, off): k is the story's key
// (a Work's id, or anything that tells lone Series apart) and off the
// member's offset. One row per story: (k, sightings timestamptz[]).
// Each chapter number in story numbers counts once, at its first
// sighting on any member; sightings within one minute are one.
func sightingsSQL(members string) string {
	return `SELECT k, (array_agg(t ORDER BY t DESC))[1:` + strconv.Itoa(MaxSightings) + `] AS sightings FROM (
			SELECT DISTINCT k, date_trunc('minute', min(e.seen_at)) AS t
			FROM (` + members + `) mm
			JOIN chapter_events e ON e.site = mm.site AND e.series_id = mm.series_id
			GROUP BY k, e.number + mm.off) f
		GROUP BY k`
}

// loneSightingsSQL is sightingsSQL for members that are each one Series
// in its own numbers (k one a Series, off 0): a Series has one Chapter
// Event a number (their unique key), so the first sighting of a number is
// its event, and one aggregate a story with one sort of the keys does what
// sightingsSQL's three sorts do. GET /api/bookmarks reads every bookmark's
// sightings with it (bookmarkSelect).
func loneSightingsSQL(members string) string {
	return `SELECT mm.k, (array_agg(DISTINCT date_trunc('minute', e.seen_at) ORDER BY date_trunc('minute', e.seen_at) DESC))[1:` +
		strconv.Itoa(MaxSightings) + `] AS sightings
		FROM (` + members + `) mm
		JOIN chapter_events e ON e.site = mm.site AND e.series_id = mm.series_id
		GROUP BY mm.k`
}

// clockJoin joins a Series s with its own sightings (sg), for
// clockColumns.
var clockJoin = `
		LEFT JOIN LATERAL (` + sightingsSQL(`SELECT 0 AS k, s.site, s.series_id, 0 AS off`) + `) sg ON true`

// clockColumns is a lone Series' Clock over Series s, its failure row f
// and clockJoin, in Clock's order.
const clockColumns = `s.latest_checked_at, s.force_poll_at, s.slow, f.failing_since, coalesce(sg.sightings, '{}')`

// Clock is the Work's time line input and the Site of the member it
// reads freshness from: the member shown, the one showing the Work's
// Latest (else the first the Reader bookmarks, else the first); the
// Work's sightings over every member; and its oldest failure shown
// (WorkMember.FailingSince: over a day old).
func (w Work) Clock() (Clock, string) {
	var shown *WorkMember
	for i := range w.Members {
		m := &w.Members[i]
		switch {
		case w.Latest != nil && m.Site == w.Latest.Site && m.SeriesID == w.Latest.SeriesID:
			shown = m
		case shown == nil && m.Bookmarked:
			shown = m
		}
		if shown != nil && w.Latest != nil && shown.Site == w.Latest.Site && shown.SeriesID == w.Latest.SeriesID {
			break
		}
	}
	if shown == nil && len(w.Members) > 0 {
		shown = &w.Members[0]
	}
	c := Clock{Sightings: w.Sightings}
	for _, m := range w.Members {
		if f := m.FailingSince; f != nil && (c.FailingSince == nil || f.Before(*c.FailingSince)) {
			c.FailingSince, c.FailingSite = f, m.Site
		}
	}
	if shown == nil {
		return c, ""
	}
	c.CheckedAt, c.ForcePollAt, c.Slow = shown.CheckedAt, shown.ForcePollAt, shown.Slow
	return c, shown.Site
}
