package browser

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"mangabookmark/backend/sites"
)

// Defaults of a Browser; each but the dial timeout has a Config field.
const (
	// DefaultChallengeWait bounds navigation plus the wait for a challenge
	// to clear, the way a person's browser would sit on the interstitial.
	DefaultChallengeWait = 30 * time.Second
	// DefaultReadTimeout bounds the in-page read after the page is ready.
	DefaultReadTimeout = 30 * time.Second
	// DefaultPollInterval is how often a challenge wait inspects the page.
	DefaultPollInterval = 100 * time.Millisecond
	// DefaultMaxBody is the largest body read, the plain route's limit.
	DefaultMaxBody = sites.DefaultBodyLimit
	// DefaultDialTimeout bounds reaching the sidecar.
	DefaultDialTimeout = 10 * time.Second
)

// Config configures a Browser. A zero field means the default its comment
// names; a negative one is refused by New.
type Config struct {
	// WSURL is the DevTools endpoint: a ws:// URL (Chrome's "DevTools
	// listening on ws://..." or a hosted browser's URL) or an
	// http://host:port remote debugging address. Required.
	WSURL string
	// Log receives connection events (connect, loss); nil discards.
	Log *slog.Logger
	// ChallengeWait bounds the page load plus the wait for a challenge to
	// clear before Fetch gives up with sites.ErrChallenge
	// (DefaultChallengeWait when zero).
	ChallengeWait time.Duration
	// ReadTimeout bounds the in-page read, data fetch or HTML capture
	// (DefaultReadTimeout when zero).
	ReadTimeout time.Duration
	// PollInterval is how often the page is inspected while waiting for a
	// challenge to clear; page loads also wake the wait
	// (DefaultPollInterval when zero).
	PollInterval time.Duration
	// MaxBody is the body size limit in bytes; a larger body is an error
	// wrapping sites.ErrTooLarge (DefaultMaxBody when zero).
	MaxBody int
	// UserAgent is the User-Agent the tab presents; empty means the
	// sidecar's own with "HeadlessChrome" written as "Chrome".
	UserAgent string
}

// settings are a validated Config with its defaults filled in.
type settings struct {
	challengeWait time.Duration
	readTimeout   time.Duration
	dialTimeout   time.Duration
	pollEvery     time.Duration
	settle        time.Duration
	maxBody       int
	userAgent     string
	logger        *slog.Logger
	now           func() time.Time // the clock seam for the settle wait
}

// settings validates cfg and fills in the defaults.
func (cfg Config) settings() (settings, error) {
	if err := checkEndpoint(cfg.WSURL); err != nil {
		return settings{}, err
	}
	durations := []struct {
		name string
		d    time.Duration
	}{
		{"ChallengeWait", cfg.ChallengeWait},
		{"ReadTimeout", cfg.ReadTimeout},
		{"PollInterval", cfg.PollInterval},
	}
	for _, f := range durations {
		if f.d < 0 {
			return settings{}, fmt.Errorf("browser: Config.%s is %v: want zero (the default) or more", f.name, f.d)
		}
	}
	if cfg.MaxBody < 0 {
		return settings{}, fmt.Errorf("browser: Config.MaxBody is %d: want zero (the default) or more", cfg.MaxBody)
	}
	s := settings{
		challengeWait: orDefault(cfg.ChallengeWait, DefaultChallengeWait),
		readTimeout:   orDefault(cfg.ReadTimeout, DefaultReadTimeout),
		dialTimeout:   DefaultDialTimeout,
		pollEvery:     orDefault(cfg.PollInterval, DefaultPollInterval),
		settle:        3 * time.Second,
		maxBody:       orDefault(cfg.MaxBody, DefaultMaxBody),
		userAgent:     cfg.UserAgent,
		logger:        cfg.Log,
		now:           time.Now,
	}
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	return s, nil
}

// checkEndpoint refuses a WSURL that can never be dialled. The error
// quotes the URL without its credentials or query (a hosted browser's
// token rides there).
func checkEndpoint(endpoint string) error {
	if endpoint == "" {
		return errors.New("browser: Config.WSURL is empty: want a ws:// or http://host:port DevTools endpoint")
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return errors.New("browser: Config.WSURL does not parse as a URL: want a ws:// or http://host:port DevTools endpoint")
	}
	switch u.Scheme {
	case "ws", "wss", "http", "https":
	default:
		return fmt.Errorf("browser: Config.WSURL %q: want a ws://, wss://, http:// or https:// URL", redact(u))
	}
	if u.Host == "" {
		return fmt.Errorf("browser: Config.WSURL %q: has no host", redact(u))
	}
	return nil
}

// orDefault is v, or def when v is zero.
func orDefault[T time.Duration | int](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}
