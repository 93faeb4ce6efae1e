package anilist

import (
	"fmt"
	"log/slog"
	"net/http"

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

// Client is AniList as a trackers.Service. One Client per process serves
// every Reader: its Limiter paces them together. Safe for concurrent use.
type Client struct {
	caller  trackers.Caller
	apiURL  string
	siteURL string
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
	caller, err := trackers.NewCaller(trackers.CallerConfig{Tracker: Name, Limiter: cfg.Limiter, HTTP: cfg.HTTP,
		Recorder: cfg.Recorder, Log: cfg.Log, MaxBody: cfg.MaxBody, DefaultMaxBody: DefaultMaxBody})
	if err != nil {
		return nil, fmt.Errorf("anilist: new: %w", err)
	}
	c := &Client{caller: caller, apiURL: DefaultAPIURL, siteURL: DefaultSiteURL}
	if cfg.Origin != "" {
		o, err := cleanOrigin(cfg.Origin)
		if err != nil {
			return nil, fmt.Errorf("anilist: new: Config.Origin: %w", err)
		}
		c.apiURL, c.siteURL = o, o
	}
	return c, nil
}

// Name is "anilist".
func (c *Client) Name() string { return Name }

// cleanOrigin checks an origin is an http(s) scheme and host only and
// returns it without a trailing slash.
func cleanOrigin(origin string) (string, error) {
	return trackers.CleanOrigin(origin, "http://127.0.0.1:9100")
}
