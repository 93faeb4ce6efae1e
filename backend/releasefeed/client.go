package releasefeed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/trackers"
)

// The outcome of one page fetch, and of a read: the word the feed's state
// and the Lane view show.
const (
	OutcomeOK          = "ok"
	OutcomeUnreachable = "unreachable" // no answer (network, timeout)
	OutcomeHTTP        = "http_error"  // an answer other than 200
	OutcomeTooLarge    = "too_large"   // an answer over MaxBody
	OutcomeBadAnswer   = "bad_answer"  // not the documented release list
	OutcomeBadPaging   = "bad_paging"  // a next page that is not the next page
)

// DefaultOrigin is MangaUpdates' API origin (TRACKER_ORIGINS'
// mangaupdates entry replaces it).
const DefaultOrigin = "https://api.mangaupdates.com"

// MaxBody is the largest page answer read, in bytes; a larger one is
// refused as too_large without being read further.
const MaxBody = 4 << 20

// perPage is the page size asked for (MangaUpdates may answer fewer; the
// answer's per_page is what paging follows).
const perPage = 100

// Client fetches pages of the release list. The zero value is unusable;
// use NewClient.
type Client struct {
	base string
	http *http.Client
}

// NewClient builds a Client for origin ("" : DefaultOrigin), an http(s)
// scheme and host only (trackers.CleanOrigin, the rule TRACKER_ORIGINS
// follows), with hc (nil: a client with a 30-second timeout).
func NewClient(origin string, hc *http.Client) (*Client, error) {
	if origin == "" {
		origin = DefaultOrigin
	}
	o, err := trackers.CleanOrigin(origin, "http://127.0.0.1:9102")
	if err != nil {
		return nil, fmt.Errorf("releasefeed: origin %q %w", origin, err)
	}
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return &Client{base: o + "/v1/releases/days", http: hc}, nil
}

// FetchError is a page fetch that failed: its outcome word, and how long
// the answer asked to wait (a Retry-After on a 429 or 503; zero when none).
type FetchError struct {
	Outcome    string
	RetryAfter time.Duration
	Err        error
}

// Error names the outcome and the cause (never a body's text).
func (e *FetchError) Error() string { return "releasefeed: " + e.Outcome + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *FetchError) Unwrap() error { return e.Err }

// Page fetches one page: page < 0 asks for the first page without naming
// it (MangaUpdates' first page number is not documented), any other asks
// for that page. Only a 200 whose body parses is a page.
func (c *Client) Page(ctx context.Context, page int) (Page, error) {
	q := url.Values{"include_metadata": {"true"}, "perpage": {strconv.Itoa(perPage)}}
	if page >= 0 {
		q.Set("page", strconv.Itoa(page))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"?"+q.Encode(), nil)
	if err != nil {
		return Page{}, &FetchError{Outcome: OutcomeUnreachable, Err: err}
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "mangabookmark-releasefeed")
	resp, err := c.http.Do(req)
	if err != nil {
		return Page{}, &FetchError{Outcome: OutcomeUnreachable, Err: errors.New("no answer from the release list")}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return Page{}, &FetchError{Outcome: OutcomeHTTP, RetryAfter: retryAfter(resp),
			Err: fmt.Errorf("the release list answered HTTP %d", resp.StatusCode)}
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return Page{}, &FetchError{Outcome: OutcomeUnreachable, Err: errors.New("the release list's answer broke off")}
	}
	if len(raw) > MaxBody {
		return Page{}, &FetchError{Outcome: OutcomeTooLarge, Err: fmt.Errorf("the release list's answer is over %d bytes", MaxBody)}
	}
	p, err := ParsePage(raw)
	if err != nil {
		return Page{}, &FetchError{Outcome: OutcomeBadAnswer, Err: err}
	}
	return p, nil
}

// retryAfter reads a 429's or 503's Retry-After in seconds (zero when
// absent or not a number; a date is not followed).
func retryAfter(resp *http.Response) time.Duration {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After")))
	if err != nil || n <= 0 {
		return 0
	}
	return time.Duration(min(n, 86400)) * time.Second
}
