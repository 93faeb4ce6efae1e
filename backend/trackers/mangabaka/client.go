package mangabaka

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"mangabookmark/backend/trackers"
)

// Name is MangaBaka's word in config (TRACKER_ORIGINS), metrics and the
// API.
const Name = "mangabaka"

// DefaultAPIURL is MangaBaka's API origin (its OpenAPI document's server).
const DefaultAPIURL = "https://api.mangabaka.org"

// DefaultPerMinute is the client's pace per process. MangaBaka limits each
// address to 180 uncached requests a minute outside search, and /v1/my
// answers are never cached; 30 leaves the rest to the crosswalk's lookups
// and to other processes on the address.
const DefaultPerMinute = 30

// MaxChapter is the highest progress_chapter MangaBaka accepts or answers
// (its library entry schema: 0 to 10000). A higher count is refused,
// never cut.
const MaxChapter = 10_000

// PageSize is the library page asked for: the most `limit` allows.
const PageSize = 100

// MaxPages bounds one pull: a library of more than MaxPages*PageSize
// entries is refused whole (trackers.ErrAnswerTooLarge), nothing of it
// half-applied.
const MaxPages = 100

// DefaultMaxBody bounds one answer's body: a page of 100 entries, each
// with its series, is a few hundred kilobytes.
const DefaultMaxBody = 8 << 20

// Client is MangaBaka as a trackers.Service. One Client per process serves
// every Reader: its Limiter paces them together. Safe for concurrent use.
type Client struct {
	caller trackers.Caller
	apiURL string
}

var (
	_ trackers.Service     = (*Client)(nil)
	_ trackers.TokenLister = (*Client)(nil)
)

// Config configures a Client.
type Config struct {
	// Origin, when set, serves the API instead of MangaBaka's own host:
	// TRACKER_ORIGINS' mangabaka entry, the local stand-in
	// (mangabakatest). An http(s) scheme and host only.
	Origin string
	// Limiter paces every request (nil: a new one at DefaultPerMinute on
	// the wall clock).
	Limiter *trackers.Limiter
	// HTTP is the client requests go through (nil: one with a 30 s
	// timeout).
	HTTP *http.Client
	// Recorder counts requests (nil: none).
	Recorder trackers.Recorder
	// Log is narrowed by the caller; nil discards. It is never handed a
	// token.
	Log *slog.Logger
	// MaxBody bounds an answer (0: DefaultMaxBody); negative or over 64
	// MiB is refused.
	MaxBody int64
}

// New builds a Client, or an error naming the Config field that cannot
// work.
func New(cfg Config) (*Client, error) {
	caller, err := trackers.NewCaller(trackers.CallerConfig{Tracker: Name, Limiter: cfg.Limiter,
		PerMinute: DefaultPerMinute, HTTP: cfg.HTTP, Recorder: cfg.Recorder, Log: cfg.Log, MaxBody: cfg.MaxBody,
		DefaultMaxBody: DefaultMaxBody})
	if err != nil {
		return nil, fmt.Errorf("mangabaka: new: %w", err)
	}
	c := &Client{caller: caller, apiURL: DefaultAPIURL}
	if cfg.Origin != "" {
		o, err := trackers.CleanOrigin(cfg.Origin, "http://127.0.0.1:9101")
		if err != nil {
			return nil, fmt.Errorf("mangabaka: new: Config.Origin: %w", err)
		}
		c.apiURL = o
	}
	return c, nil
}

// Name is "mangabaka".
func (c *Client) Name() string { return Name }

// tokenOK reports whether token could be a personal access token: "mb-"
// and then printable ASCII without spaces (it travels in a header), at
// most 512 bytes. Anything else is refused without a request.
func tokenOK(token string) bool {
	if !strings.HasPrefix(token, "mb-") || len(token) > 512 || len(token) < 4 {
		return false
	}
	for i := 0; i < len(token); i++ {
		if token[i] <= ' ' || token[i] > '~' {
			return false
		}
	}
	return true
}

// mediaOK reports whether id could be a MangaBaka series id: 1 to 12
// digits, no leading zero.
func mediaOK(id string) bool {
	if id == "" || len(id) > 12 || id[0] == '0' {
		return false
	}
	return strings.Trim(id, "0123456789") == ""
}
