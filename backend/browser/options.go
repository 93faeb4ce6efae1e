package browser

import (
	"log/slog"
	"time"

	"mangabookmark/backend/sites"
)

// Defaults of a Browser; each but the dial timeout has an Option.
const (
	// DefaultChallengeWait bounds navigation plus the wait for a challenge
	// to clear, the way a person's browser would sit on the interstitial.
	DefaultChallengeWait = 30 * time.Second
	// DefaultReadTimeout bounds the in-page read after the page is ready.
	DefaultReadTimeout = 30 * time.Second
	// DefaultMaxBody is the largest body read, the plain route's limit.
	DefaultMaxBody = sites.DefaultBodyLimit
	// DefaultDialTimeout bounds reaching the sidecar.
	DefaultDialTimeout = 10 * time.Second
)

type options struct {
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

func defaultOptions() options {
	return options{
		challengeWait: DefaultChallengeWait,
		readTimeout:   DefaultReadTimeout,
		dialTimeout:   DefaultDialTimeout,
		pollEvery:     100 * time.Millisecond,
		settle:        3 * time.Second,
		maxBody:       DefaultMaxBody,
		logger:        slog.New(slog.DiscardHandler),
		now:           time.Now,
	}
}

// Option changes one setting of a Browser.
type Option func(*options)

// WithChallengeWait sets how long Fetch waits for the page to load and any
// challenge to clear before giving up with sites.ErrChallenge.
func WithChallengeWait(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.challengeWait = d
		}
	}
}

// WithReadTimeout bounds the in-page read (data fetch or HTML capture).
func WithReadTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.readTimeout = d
		}
	}
}

// WithPollInterval sets how often the page is inspected while waiting for a
// challenge to clear (100ms by default; page loads also wake the wait).
func WithPollInterval(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.pollEvery = d
		}
	}
}

// WithMaxBody sets the body size limit in bytes. A larger body is an error
// wrapping sites.ErrTooLarge (unfetchable).
func WithMaxBody(n int) Option {
	return func(o *options) {
		if n > 0 {
			o.maxBody = n
		}
	}
}

// WithUserAgent sets the User-Agent the tab presents. By default it is the
// sidecar's own with "HeadlessChrome" written as "Chrome".
func WithUserAgent(ua string) Option {
	return func(o *options) { o.userAgent = ua }
}

// WithLogger sets the logger for connection events (connect, loss).
func WithLogger(l *slog.Logger) Option {
	return func(o *options) {
		if l != nil {
			o.logger = l
		}
	}
}
