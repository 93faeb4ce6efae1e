package sites

import (
	"context"
	"net/url"
	"time"
)

// DefaultListingEvery is how often a Lane reads its Site's listing when the
// registry entry leaves ListingEvery zero (ADR 0015).
const DefaultListingEvery = 5 * time.Minute

// MaxListingEntries bounds how many entries one listing page may give: a
// page listing more is cut there (the newest first), so a hostile page
// cannot make the Lane hint thousands of Series.
const MaxListingEntries = 500

// ListingEntry is one line of a Site's "latest updates" listing: the Series
// it names, the chapter number it shows ("" when the listing gives none or
// the number is unusable) and when the Site says it appeared (zero when
// not given). SeriesID is already canonical, as the adapter's SeriesID
// would give it. Mark is anything else the line shows that changes when
// the Series gets a chapter (Kagane's book count), "" when none: a line
// whose mark changed is a new line, so a Series that stays on top of a
// listing without numbers or times still hints when it moves.
type ListingEntry struct {
	SeriesID string
	Number   string
	SeenAt   time.Time
	Mark     string
}

// Listing is the answer of one listing fetch: the outcome word (the same
// words a read ends in), the entries newest first when it is OK, whether
// the Site has a next page, how many lines were dropped (a Series id that
// is not one, a line past MaxListingEntries), and the error behind any
// other outcome.
type Listing struct {
	Outcome Outcome
	Entries []ListingEntry
	More    bool
	Dropped int
	Status  int
	Err     error
}

// Lister is the optional capability of an Adapter whose Site publishes a
// page of its most recent chapters. Listing fetches page (1-based) of it
// through the route; an adapter whose listing has one page answers page 2
// with More false and no entries. It never writes anything: the Lane turns
// the entries into hints (backend/listing).
type Lister interface {
	Listing(ctx context.Context, s *Site, f Fetcher, page int) Listing
}

// ListerOf returns the Site's Lister, or nil when its adapter has none.
func (s *Site) ListerOf() Lister {
	if l, ok := s.Adapter.(Lister); ok {
		return l
	}
	return nil
}

// ListingFail builds a failed Listing from the result of a fetch.
func ListingFail(r Result) Listing {
	return Listing{Outcome: r.Outcome, Status: r.Status, Err: r.Err}
}

// SeriesFromLink turns a link on a listing page into the Series id the
// adapter's SeriesID gives for it, resolved against base. A link that is
// not on base's host, not http(s), or that names no Series gives "" (the
// caller drops the line).
func SeriesFromLink(a Adapter, base, href string) string {
	abs := Resolve(base, href)
	if abs == "" {
		return ""
	}
	u, err := url.Parse(abs)
	if err != nil {
		return ""
	}
	b, err := url.Parse(base)
	if err != nil || u.Host != b.Host {
		return ""
	}
	id, err := a.SeriesID(u)
	if err != nil {
		return ""
	}
	return id
}

// Add appends an entry unless the page already gave MaxListingEntries, in
// which case it counts the entry dropped.
func (l *Listing) Add(e ListingEntry) {
	if len(l.Entries) >= MaxListingEntries {
		l.Dropped++
		return
	}
	l.Entries = append(l.Entries, e)
}

// ListingShaper is a Lister that can say, for a listing page it fetched,
// which of the fields its fixtures have are there: the diff `mangabookmark
// probe --listing` prints, as Shaper does for a Series read.
type ListingShaper interface {
	ListingShape(body []byte) []Field
}

// ListingTrial is an adapter whose Site has no listing yet because no
// saved capture shows the candidate page carries one: TryListing reads
// that page once and answers as a Lister's page 1 would (no_chapter,
// saying why, when the lines are not there), so `mangabookmark probe
// --listing` decides whether the listing can be built. The Lanes never
// call it.
type ListingTrial interface {
	TryListing(ctx context.Context, s *Site, f Fetcher) Listing
}
