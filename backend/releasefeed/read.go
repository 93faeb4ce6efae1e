package releasefeed

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mangabookmark/backend/store"
)

// DefaultMaxPages bounds the pages one read fetches.
const DefaultMaxPages = 10

// readResult is what one read of the list learnt: its outcome (ok, or the
// failure that ended it; the pages before a failure still count), the
// releases taken in (newest first, each once), the pages fetched, the
// rows skipped as unusable, and whether it stopped at the page bound
// before reaching what the last read saw.
type readResult struct {
	Outcome    string
	Err        error
	RetryAfter time.Duration
	Pages      int
	Releases   []Release
	Skipped    int
	Overflow   bool
}

// fetchPage fetches one page (page < 0: the first, unnamed).
type fetchPage func(ctx context.Context, page int) (Page, error)

// readList pages through the list, newest first (the order public clients
// rely on: they page until the release dates fall below the day they
// want). It stops at an empty or short page, at total_hits, at a page
// whose releases were all seen at the last read (prev; never on a first
// read), at a page that reaches a release dated before since (YYYY-MM-DD),
// or after maxPages. A next page that does not advance (its page number
// not above the last, or nothing on it not already read in this read) is
// bad_paging: the read stops there and keeps what it took in.
func readList(ctx context.Context, fetch fetchPage, prev map[int64]bool, since string, maxPages int) readResult {
	r := readResult{Outcome: OutcomeOK}
	got := map[int64]bool{}
	first := len(prev) == 0
	ask, last := -1, 0
	for n := 0; n < maxPages; n++ {
		p, err := fetch(ctx, ask)
		r.Pages++
		if err != nil {
			r.Outcome, r.Err = OutcomeUnreachable, err
			var fe *FetchError
			if errors.As(err, &fe) {
				r.Outcome, r.RetryAfter = fe.Outcome, fe.RetryAfter
			}
			return r
		}
		r.Skipped += p.Skipped
		if n > 0 && p.HasNumber && p.Number <= last {
			r.Outcome, r.Err = OutcomeBadPaging, fmt.Errorf("releasefeed: asked for page %d, the answer says page %d", ask, p.Number)
			return r
		}
		fresh, old, dated := 0, 0, false
		for _, rel := range p.Releases {
			if rel.Date != "" && rel.Date < since {
				dated = true
			}
			if got[rel.ID] {
				continue
			}
			got[rel.ID] = true
			fresh++
			if prev[rel.ID] {
				old++
			}
			r.Releases = append(r.Releases, rel)
		}
		if n > 0 && len(p.Releases) > 0 && fresh == 0 {
			r.Outcome, r.Err = OutcomeBadPaging, fmt.Errorf("releasefeed: page %d repeats releases already read", ask)
			return r
		}
		switch {
		case p.Rows == 0, dated, !first && fresh > 0 && old == fresh:
			return r
		case p.PerPage > 0 && p.Rows < p.PerPage:
			return r
		case p.PerPage > 0 && p.TotalHits > 0 && r.Pages*p.PerPage >= p.TotalHits:
			return r
		}
		// The next page: the one after the page the answer named; when it
		// names none, the first page is taken to be 1.
		switch {
		case p.HasNumber:
			last = p.Number
		case n == 0:
			last = 1
		default:
			last = ask
		}
		ask = last + 1
	}
	r.Overflow = !first
	return r
}

// hint is one release the read turns into a hint: the mu id and the
// chapter number ("" when the release gives none).
type hint struct {
	MU     string
	Number string
}

// decide turns a read's releases into hints and the ids to remember,
// as a listing's look does (listing.Decide): a release seen at the last
// read (prev) never hints again; a new one with a number hints (the store
// hints only when the number is above the stored Latest Chapter); a new
// one without a number hints too, except on a first read (nothing to
// compare with: the whole day would look new). The ids kept are this
// read's, newest first, then the last read's not met again, at most
// store.MaxReleaseSeen.
func decide(prevSeen []int64, releases []Release) ([]hint, []int64) {
	prev := make(map[int64]bool, len(prevSeen))
	for _, id := range prevSeen {
		prev[id] = true
	}
	first := len(prevSeen) == 0
	var hints []hint
	seen := make([]int64, 0, min(len(releases)+len(prevSeen), store.MaxReleaseSeen))
	kept := map[int64]bool{}
	for _, rel := range releases {
		if !kept[rel.ID] {
			kept[rel.ID] = true
			seen = append(seen, rel.ID)
		}
		switch {
		case prev[rel.ID]:
		case rel.Number != "":
			hints = append(hints, hint{MU: rel.MU(), Number: rel.Number})
		case !first:
			hints = append(hints, hint{MU: rel.MU()})
		}
	}
	for _, id := range prevSeen {
		if !kept[id] {
			kept[id] = true
			seen = append(seen, id)
		}
	}
	if len(seen) > store.MaxReleaseSeen {
		seen = seen[:store.MaxReleaseSeen]
	}
	return hints, seen
}
