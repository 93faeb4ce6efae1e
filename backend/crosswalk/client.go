package crosswalk

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

	"mangabookmark/backend/muid"
	"mangabookmark/backend/store"
)

// DefaultOrigin is MangaBaka's API (its OpenAPI document's server).
const DefaultOrigin = "https://api.mangabaka.org"

// maxBody bounds an answer read: a source lookup names a handful of
// series of a few kilobytes each; anything past this is refused whole.
const maxBody = 1 << 20

// services are MangaBaka's path words for each kind it looks up.
var services = map[string]string{
	"al":            "anilist",
	"mal":           "my-anime-list",
	"kt":            "kitsu",
	muid.Kind:       "manga-updates",
	muid.KindLegacy: "manga-updates",
}

// Answer is one lookup's outcome: Status the HTTP status (200, 404),
// IDs the ids of the one active series it names (none for a 404, for no
// or several active series), StoryStatus that series' publication status
// in our words (unknown when it gives none; "" when the answer names no
// series) and FinalChapter its total_chapters when it is completed.
type Answer struct {
	Status       int
	IDs          []store.ExternalID
	StoryStatus  string
	FinalChapter string
}

// TransientError is an answer worth asking again later: a 429, a 5xx, no
// answer at all. RetryAfter is MangaBaka's Retry-After when it sent one.
type TransientError struct {
	Status     int
	RetryAfter time.Duration
	Err        error
}

func (e *TransientError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("crosswalk: no answer: %v", e.Err)
	}
	return fmt.Sprintf("crosswalk: answered %d", e.Status)
}

// Unwrap gives the transport error, when there was no answer.
func (e *TransientError) Unwrap() error { return e.Err }

// Client asks MangaBaka's source lookup. It is safe for concurrent use.
type Client struct {
	origin string
	http   *http.Client
	agent  string
}

// NewClient builds a Client for origin (DefaultOrigin when empty; a
// stand-in's in tests, TRACKER_ORIGINS' mangabaka entry). version goes
// into the User-Agent.
func NewClient(origin, version string, hc *http.Client) *Client {
	if origin == "" {
		origin = DefaultOrigin
	}
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return &Client{origin: strings.TrimRight(origin, "/"), http: hc,
		agent: "mangabookmark/" + version + " (self-hosted manga bookmarks; crosswalk)"}
}

// Path is the lookup's path for a canonical (kind, value): a mu API
// number is asked as its URL id, the form MangaBaka documents. ok is
// false for an id MangaBaka cannot be asked about.
func Path(kind, value string) (string, bool) {
	svc, ok := services[kind]
	if !ok {
		return "", false
	}
	if kind == muid.Kind {
		if value, ok = muid.URLID(value); !ok {
			return "", false
		}
	}
	return "/v1/source/" + svc + "/" + url.PathEscape(value), true
}

// Lookup asks MangaBaka about one canonical id. A 200 or a 404 is an
// Answer; a hostile 200 is ErrHostile; a 429, a 5xx or no answer is a
// *TransientError; any other status an error of its own.
func (c *Client) Lookup(ctx context.Context, kind, value string) (Answer, error) {
	path, ok := Path(kind, value)
	if !ok {
		return Answer{}, fmt.Errorf("crosswalk: %s %s cannot be looked up", kind, value)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.origin+path, nil)
	if err != nil {
		return Answer{}, fmt.Errorf("crosswalk: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.agent)
	resp, err := c.http.Do(req)
	if err != nil {
		return Answer{}, &TransientError{Err: err}
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody))
		return Answer{Status: http.StatusNotFound}, nil
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return Answer{}, &TransientError{Status: resp.StatusCode, RetryAfter: retryAfter(resp.Header.Get("Retry-After"))}
	case resp.StatusCode != http.StatusOK:
		return Answer{}, fmt.Errorf("crosswalk: %s answered %d", path, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return Answer{}, &TransientError{Err: err}
	}
	if len(body) > maxBody {
		return Answer{}, fmt.Errorf("%w: more than %d bytes", ErrHostile, maxBody)
	}
	ids, st, err := parseAnswer(body, kind, value)
	if err != nil {
		return Answer{}, err
	}
	return Answer{Status: http.StatusOK, IDs: ids, StoryStatus: st.Status, FinalChapter: st.FinalChapter}, nil
}

// retryAfter reads a Retry-After of whole seconds (0 when absent or not
// seconds; capped at an hour). The cap comes before the seconds become a
// Duration: a huge count must not overflow into a short or negative wait.
func retryAfter(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0
	}
	return time.Duration(min(n, int(time.Hour/time.Second))) * time.Second
}

// IsTransient reports whether err is worth asking again later.
func IsTransient(err error) bool {
	var t *TransientError
	return errors.As(err, &t)
}
