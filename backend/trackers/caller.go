package trackers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultHold is how long a 429 that names no usable wait holds a
// tracker's Limiter: AniList documents a minute's timeout, and MangaBaka
// counts its limit per minute.
const DefaultHold = time.Minute

// MaxHold is the longest one answer may hold a Limiter; a larger
// Retry-After is read as this.
const MaxHold = 10 * time.Minute

// MaxRetries is how many times a request answered 429 is asked again,
// each after the wait the answer named.
const MaxRetries = 2

// maxBodyCeiling is the largest CallerConfig.MaxBody NewCaller accepts.
const maxBodyCeiling = 64 << 20

// Caller is what every tracker client shares: the process's Limiter for
// that tracker, the HTTP client, the request counter, the log and the
// bound on an answer, and the request loop (Do). One Caller per tracker
// per process; safe for concurrent use.
type Caller struct {
	// Tracker is the tracker's name, as the Recorder and the log give it.
	Tracker string
	Limit   *Limiter
	HTTP    *http.Client
	Rec     Recorder
	Log     *slog.Logger
	MaxBody int64
}

// CallerConfig configures a Caller; every nil or zero field takes its
// default.
type CallerConfig struct {
	// Tracker is the tracker's name ("anilist"); it prefixes errors.
	Tracker string
	// Limiter paces every request (nil: a new one at PerMinute on the
	// wall clock).
	Limiter *Limiter
	// PerMinute is the pace of a new Limiter (0: DefaultPerMinute).
	PerMinute int
	// HTTP is the client requests go through (nil: one with a 30 s
	// timeout).
	HTTP *http.Client
	// Recorder counts requests (nil: none).
	Recorder Recorder
	// Log is narrowed by the caller; nil discards. It is never handed a
	// token.
	Log *slog.Logger
	// MaxBody bounds an answer (0: DefaultMaxBody); negative or over 64
	// MiB is refused.
	MaxBody int64
	// DefaultMaxBody is the tracker's own bound when MaxBody is 0.
	DefaultMaxBody int64
}

// NewCaller builds a Caller, or an error naming the Config field that
// cannot work (as "Config.MaxBody": the tracker's Config carries them).
func NewCaller(cfg CallerConfig) (Caller, error) {
	c := Caller{Tracker: cfg.Tracker, Limit: cfg.Limiter, HTTP: cfg.HTTP, Rec: cfg.Recorder, Log: cfg.Log,
		MaxBody: cfg.MaxBody}
	switch {
	case cfg.MaxBody < 0 || cfg.MaxBody > maxBodyCeiling:
		return Caller{}, fmt.Errorf("Config.MaxBody %d is outside 0..%d", cfg.MaxBody, maxBodyCeiling)
	case cfg.MaxBody == 0:
		c.MaxBody = cfg.DefaultMaxBody
	}
	if c.Limit == nil {
		l, err := NewLimiter(LimiterConfig{PerMinute: cfg.PerMinute})
		if err != nil {
			return Caller{}, err
		}
		c.Limit = l
	}
	if c.HTTP == nil {
		c.HTTP = &http.Client{Timeout: 30 * time.Second}
	}
	if c.Rec == nil {
		c.Rec = NopRecorder{}
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	return c, nil
}

// Do runs attempt until it ends in anything but a 429: it waits on the
// Limiter before every attempt, counts each attempt under the result
// word attempt returns, and asks again after a RateLimited error at most
// MaxRetries times (the attempt has already held the Limiter for the
// wait the answer named). Its error is the last attempt's.
func (c Caller) Do(ctx context.Context, kind string, attempt func() (result string, err error)) error {
	for n := 0; ; n++ {
		if err := c.Limit.Wait(ctx); err != nil {
			c.Rec.Request(c.Tracker, kind, ResultCanceled)
			return fmt.Errorf("%s: %s: wait for the rate limit: %w", c.Tracker, kind, err)
		}
		result, err := attempt()
		c.Rec.Request(c.Tracker, kind, result)
		var rl *RateLimited
		if !errors.As(err, &rl) {
			return err
		}
		c.Log.Warn("tracker rate limited", "tracker", c.Tracker, "kind", kind, "wait", rl.Wait, "attempt", n+1)
		if n >= MaxRetries {
			return err
		}
	}
}

// HoldFor429 holds the Limiter for a 429's wait and returns the error
// that says so; Do asks again after it.
func (c Caller) HoldFor429(kind string, wait time.Duration) error {
	wait = min(wait, MaxHold)
	c.Limit.Hold(c.Limit.Now().Add(wait))
	return fmt.Errorf("%s: %s: %w", c.Tracker, kind, &RateLimited{Wait: wait})
}

// RateLimited is a 429: it wraps ErrRateLimited and says how long the
// Limiter was held.
type RateLimited struct{ Wait time.Duration }

func (e *RateLimited) Error() string {
	return fmt.Sprintf("%s (asked to wait %s)", ErrRateLimited, e.Wait)
}

// Unwrap is ErrRateLimited.
func (e *RateLimited) Unwrap() error { return ErrRateLimited }

// RetryAfterSeconds is a Retry-After header in its seconds form, at most
// MaxHold (false when it is absent, negative or not a number; the date
// form is not used by the trackers).
func RetryAfterSeconds(h http.Header) (time.Duration, bool) {
	s, err := strconv.Atoi(strings.TrimSpace(h.Get("Retry-After")))
	if err != nil || s < 0 {
		return 0, false
	}
	// Bounded before it becomes a Duration: a huge number of seconds
	// would overflow into a negative or tiny wait.
	return time.Duration(min(s, int(MaxHold/time.Second))) * time.Second, true
}

// CleanOrigin checks an origin (TRACKER_ORIGINS' entry, a stand-in's
// URL) is an http(s) scheme and host only and returns it lower-cased
// without a trailing slash; example is the form the error shows.
func CleanOrigin(origin, example string) (string, error) {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" ||
		u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", errors.New("must be an http(s) scheme and host only, such as " + example)
	}
	return u.Scheme + "://" + strings.ToLower(u.Host), nil
}
