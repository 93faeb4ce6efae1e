package sites

import (
	"errors"
	"fmt"
)

// Outcome is the one word a read of one Series ends in. The words are stored
// in poll_failures and counted in poll_passes, so they never change.
type Outcome string

// The outcomes of one read (docs/architecture.md, "Outcomes and what they write").
const (
	OK          Outcome = "ok"          // Latest Chapter read
	NotFound    Outcome = "not_found"   // the Series is gone (404/410 or the Site's not-found page)
	NoChapter   Outcome = "no_chapter"  // page read, no Latest Chapter found (layout change)
	Unfetchable Outcome = "unfetchable" // answered but unusable: other 4xx, wrong type, too large, redirected away
	Errors      Outcome = "errors"      // transport error, timeout, 5xx
	Refused     Outcome = "refused"     // a challenge held the read
	Unreachable Outcome = "unreachable" // the browser sidecar was lost mid-read
)

// Outcomes lists every outcome in the order passes and tables show them.
var Outcomes = []Outcome{OK, NotFound, NoChapter, Unfetchable, Errors, Refused, Unreachable}

// WritesFailure reports whether the outcome is evidence about the page and so
// upserts the Series' failure row. OK deletes the row; Refused and
// Unreachable are evidence about the environment and leave it untouched.
func (o Outcome) WritesFailure() bool {
	switch o {
	case NotFound, NoChapter, Unfetchable, Errors:
		return true
	}
	return false
}

// Valid reports whether o is one of the known outcome words.
func (o Outcome) Valid() bool {
	for _, k := range Outcomes {
		if o == k {
			return true
		}
	}
	return false
}

// Errors a route returns (wrapped) so classification needs no route knowledge.
var (
	// ErrUnreachable: the browser sidecar could not be reached or was lost
	// mid-read. Classified as Unreachable; trips the shared browser-lost flag.
	ErrUnreachable = errors.New("browser sidecar unreachable")
	// ErrRouteBusy: the read waited for the route (the browser's one tab)
	// until its time ran out and never reached the Site. It wraps
	// ErrUnreachable, so it is Unreachable too, but the sidecar is alive: it
	// trips no browser-lost flag, and the Series stays due.
	ErrRouteBusy = fmt.Errorf("route busy with other reads: %w", ErrUnreachable)
	// ErrChallenge: a challenge was still up when the route gave up on it.
	// Classified as Refused.
	ErrChallenge = errors.New("challenge held the read")
)
