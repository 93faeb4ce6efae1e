package sites

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

// Default pace of every registry entry (ADR 0002): a Series rests an hour
// between Polls, and a Lane waits ten seconds between fetches.
const (
	DefaultRest = time.Hour
	DefaultGap  = 10 * time.Second
)

// Site is one registry entry: everything about a Site that is not a Series.
// Pace lives here and nowhere else.
type Site struct {
	Name    string        // the stable name stored in every table: "mangadex"
	Hosts   []string      // canonical hosts and known mirrors, without "www."
	Browser bool          // read through the browser sidecar (Cloudflare)
	Rest    time.Duration // how long a Series rests between Polls
	Gap     time.Duration // how long the Lane waits between fetches
	Adapter Adapter

	// ListingEvery is how often the Lane reads the Site's own "latest
	// updates" listing, when its adapter is a Lister (DefaultListingEvery
	// when zero, never when negative; listing.go). Ignored otherwise.
	ListingEvery time.Duration

	// SourceNames are the names other apps give the Site (a Mihon
	// extension's source name, "Weeb Central"), matched case-insensitively
	// when an import maps a backup's sources; SourceIDs are known source
	// ids (Mihon's MangaDex). Source ids change when an extension bumps
	// its version, so names decide first.
	SourceNames []string
	SourceIDs   []int64

	// Origin is where the Site is fetched from: scheme and host, no path
	// ("https://mangadex.org"). SITE_ORIGINS overrides it; an adapter whose
	// data lives on another host (an API host) derives that from Origin when
	// Overridden is set, so one local server can stand in for the whole Site.
	Origin     string
	Overridden bool
}

// Ref names one Series: the Site, the Site's own id and its canonical URL.
type Ref struct {
	Site     string `json:"site"`
	SeriesID string `json:"series_id"`
	URL      string `json:"url"`
}

// Chapter is a Latest Chapter as a Site shows it. Number is a decimal string
// ("12", "105.5"); ReleasedAt is zero when the Site gives no time.
type Chapter struct {
	Number     string
	Title      string
	URL        string
	ReleasedAt time.Time
}

// Facts is what one successful read learns about a Series.
type Facts struct {
	Title    string
	CoverURL string
	Latest   *Chapter // nil when the page had no recognisable Latest Chapter

	// Rows is how many chapter rows the read saw; Skipped counts the rows
	// it passed over, by reason ("no number", "other language", ...).
	Rows    int
	Skipped map[string]int

	// IDs are the external ids the page itself carries (empty when it
	// carries none); AltTitles its other titles. Works link on IDs and
	// only ever suggest on titles (docs/CONTEXT.md, Work).
	IDs       []ExternalID
	AltTitles []string

	// Status is the story's publication status as the page states it (a
	// Status constant; "" when the page carries none) and FinalChapter its
	// final chapter's number (a decimal string; "" when none is known).
	Status       string
	FinalChapter string
}

// Result is the whole answer of one read: the outcome word, the facts when
// the outcome is OK, and the error behind any other outcome (for logs).
type Result struct {
	Outcome Outcome
	Facts   Facts
	Status  int // HTTP status seen, 0 when none
	Err     error
}

// Request asks a route for one document of a Site. Page is the Site page to
// open; Data, when set, is a same-origin URL whose body is wanted instead
// (the browser route opens Page, passes any challenge, then fetches Data from
// inside the page; the plain route fetches Data directly when set).
type Request struct {
	Site   *Site
	Page   string
	Data   string
	Accept string      // Accept header for the plain route ("" = any)
	Header http.Header // extra per-Site headers (Referer, Origin)

	// Method is the HTTP method of the Target request ("" is GET). A POST
	// carries Body as ContentType: Kagane's listing is a search POSTed
	// from inside its page (the browser route opens Page, then fetches
	// Data with this method and body).
	Method      string
	Body        []byte
	ContentType string
}

// HTTPMethod is the request's method: Method, or GET when it is empty.
func (r Request) HTTPMethod() string {
	if r.Method == "" {
		return http.MethodGet
	}
	return r.Method
}

// Target is the URL whose body the request wants: Data when set, else Page.
func (r Request) Target() string {
	if r.Data != "" {
		return r.Data
	}
	return r.Page
}

// Response is the document a route fetched.
type Response struct {
	Status   int
	Header   http.Header
	Body     []byte
	FinalURL *url.URL
}

// Fetcher is a route: plain HTTPS or the browser sidecar. Implementations
// return an error only when no usable HTTP answer exists; the error is then
// classified with ClassifyError.
type Fetcher interface {
	Fetch(ctx context.Context, req Request) (*Response, error)
}

// Adapter is what each Site fills in: canonicalisation of its URLs and the
// read of one Series through a route.
type Adapter interface {
	// SeriesID extracts the Series id from the path (and query) of a URL
	// already known to be on one of the Site's hosts. It never fetches.
	SeriesID(u *url.URL) (string, error)
	// SeriesURL is the canonical Series page URL on the Site's public origin.
	SeriesURL(s *Site, seriesID string) string
	// Read fetches and parses the Series' Latest Chapter, title and cover.
	Read(ctx context.Context, s *Site, f Fetcher, seriesID string) Result
}

// Reasons a read skips a chapter row, as counted in Facts.Skipped.
const (
	SkipNoNumber      = "no number"      // the row gives no chapter number ("Epilogue", "Special 2")
	SkipOtherLanguage = "other language" // a translation the Reader did not ask for
	SkipNoLink        = "no link"        // neither a readable page nor an external link
)

// Skip counts one row passed over for reason.
func (f *Facts) Skip(reason string) {
	if f.Skipped == nil {
		f.Skipped = map[string]int{}
	}
	f.Skipped[reason]++
}
