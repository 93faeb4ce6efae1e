package listing

import (
	"context"
	"fmt"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// FailuresToSay is how many listing reads in a row must fail before the
// Lane says so in its state; Rest carries on meanwhile.
const FailuresToSay = 3

// Result is one listing read: the outcome of page 1 (anything but OK ends
// the read with nothing learnt), page 2's outcome when it was fetched (one
// that failed leaves page 1's look standing), the pages fetched, the look
// over them, and whether it overflowed (page 1 shared nothing with the
// last look and page 2 did not either, or could not be had).
type Result struct {
	Outcome    sites.Outcome
	Err        error
	PageTwo    sites.Outcome // "" when page 2 was not fetched
	PageTwoErr error
	Pages      int
	Look       Look
	Overflow   bool
}

// Refused reports whether the Site refused the read, on page 1 or on
// page 2: either counts toward the Lane's refusal backoff, even though a
// refused page 2 keeps page 1's hints.
func (r Result) Refused() bool {
	return r.Outcome == sites.Refused || r.PageTwo == sites.Refused
}

// Read fetches page 1 of a listing through fetch and, when nothing on it
// was seen at the last look (prev) and the Site has a next page, page 2.
// An empty page 1 is a quiet look: no hint, no overflow, prev kept.
// fetch runs one request (the caller keeps the Gap between them).
func Read(fetch func(page int) sites.Listing, prev []string) Result {
	p1 := fetch(1)
	r := Result{Outcome: p1.Outcome, Err: p1.Err, Pages: 1}
	if p1.Outcome != sites.OK {
		return r
	}
	if len(p1.Entries) == 0 {
		// Nothing listed (a quiet Site): nothing to hint, nothing scrolled
		// off, and the last look's keys still stand for the next look.
		r.Look = Look{Seen: prev, Overlap: true}
		return r
	}
	r.Look = Decide(prev, p1.Entries)
	if r.Look.Overlap {
		return r
	}
	r.Overflow = true
	if !p1.More {
		return r
	}
	p2 := fetch(2)
	r.Pages, r.PageTwo, r.PageTwoErr = 2, p2.Outcome, p2.Err
	if p2.Outcome != sites.OK {
		return r
	}
	both := append(append([]sites.ListingEntry(nil), p1.Entries...), p2.Entries...)
	r.Look = Decide(prev, both)
	r.Overflow = !r.Look.Overlap
	return r
}

// Record stores what a listing read learnt: the hints (HintSeries with the
// due cutoff now - rest, which only ever makes a Series more due) and the
// listing state. A failed read
// hints nothing, keeps the last look's keys and counts a failure in a row;
// it never writes a failure row for any Series. It returns the new state
// and how many Series were made due.
func Record(ctx context.Context, st *store.Store, prev store.ListingState, r Result, now time.Time, rest time.Duration) (store.ListingState, int, error) {
	next := prev
	next.LastAt = &now
	next.LastOutcome = string(r.Outcome)
	if r.Outcome != sites.OK {
		next.Failures++
		if err := st.SaveListing(ctx, next); err != nil {
			return prev, 0, fmt.Errorf("listing: %w", err)
		}
		return next, 0, nil
	}
	n, err := st.HintSeries(ctx, prev.Site, r.Look.Hints, now.Add(-rest))
	if err != nil {
		return prev, 0, fmt.Errorf("listing: %w", err)
	}
	next.Failures, next.Hinted, next.Seen = 0, n, r.Look.Seen
	if r.Overflow {
		next.Overflows++
	}
	if err := st.SaveListing(ctx, next); err != nil {
		return prev, n, fmt.Errorf("listing: %w", err)
	}
	return next, n, nil
}

// Failing reports whether the state's failures in a row are enough for
// the Lane to say its listing is failing.
func Failing(l store.ListingState) bool { return l.Failures >= FailuresToSay }
