package anilist

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"mangabookmark/backend/trackers"
)

// Name is AniList's word in config (TRACKER_ORIGINS), metrics and the API.
const Name = "anilist"

// AniList's own endpoints: the GraphQL API and the site that holds OAuth.
const (
	DefaultAPIURL  = "https://graphql.anilist.co"
	DefaultSiteURL = "https://anilist.co"
)

// DefaultMaxBody bounds an answer's body: an 11,000-entry list of the
// three fields listDocument asks is under 1 MiB.
const DefaultMaxBody = 8 << 20

// maxBodyCeiling is the largest MaxBody New accepts.
const maxBodyCeiling = 64 << 20

// maxRetries is how many times a request answered 429 is asked again,
// each after the wait the answer named.
const maxRetries = 2

// Client is AniList as a trackers.Service. One Client per process serves
// every Reader: its Limiter paces them together. Safe for concurrent use.
type Client struct {
	apiURL  string
	siteURL string
	http    *http.Client
	limit   *trackers.Limiter
	rec     trackers.Recorder
	log     *slog.Logger
	maxBody int64
}

var _ trackers.Service = (*Client)(nil)

// Config configures a Client.
type Config struct {
	// Origin, when set, serves both the API (POST /) and OAuth
	// (/api/v2/oauth/) instead of AniList's own hosts: TRACKER_ORIGINS'
	// anilist entry, the local stand-in (anilisttest). An http(s) scheme
	// and host only.
	Origin string
	// Limiter paces every request (nil: a new one at
	// trackers.DefaultPerMinute on the wall clock). Give one Client per
	// process, or share one Limiter between Clients.
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
	c := &Client{apiURL: DefaultAPIURL, siteURL: DefaultSiteURL, http: cfg.HTTP, limit: cfg.Limiter,
		rec: cfg.Recorder, log: cfg.Log, maxBody: cfg.MaxBody}
	if cfg.Origin != "" {
		o, err := cleanOrigin(cfg.Origin)
		if err != nil {
			return nil, fmt.Errorf("anilist: new: Config.Origin: %w", err)
		}
		c.apiURL, c.siteURL = o, o
	}
	switch {
	case cfg.MaxBody < 0 || cfg.MaxBody > maxBodyCeiling:
		return nil, fmt.Errorf("anilist: new: Config.MaxBody %d is outside 0..%d", cfg.MaxBody, maxBodyCeiling)
	case cfg.MaxBody == 0:
		c.maxBody = DefaultMaxBody
	}
	if c.limit == nil {
		l, err := trackers.NewLimiter(trackers.LimiterConfig{})
		if err != nil {
			return nil, fmt.Errorf("anilist: new: %w", err)
		}
		c.limit = l
	}
	if c.http == nil {
		c.http = &http.Client{Timeout: 30 * time.Second}
	}
	if c.rec == nil {
		c.rec = trackers.NopRecorder{}
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	return c, nil
}

// Name is "anilist".
func (c *Client) Name() string { return Name }

// cleanOrigin checks an origin is an http(s) scheme and host only and
// returns it without a trailing slash.
func cleanOrigin(origin string) (string, error) {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" ||
		u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", errors.New("must be an http(s) scheme and host only, such as http://127.0.0.1:9100")
	}
	return u.Scheme + "://" + strings.ToLower(u.Host), nil
}
