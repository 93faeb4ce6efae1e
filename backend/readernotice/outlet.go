package readernotice

import (
	"context"
	"errors"

	"mangabookmark/backend/store"
)

// ErrGone is wrapped by an outlet's Send when the target no longer exists
// (a push subscription answered 404 or 410): the delivery is dropped, not
// retried, and counts as no failure.
var ErrGone = errors.New("readernotice: outlet target gone")

// ErrRefused is wrapped by an outlet's Send when the Reader's receiver
// refused for good: a webhook or ntfy topic answered 401, 403, 404 or 410
// (removed, or its token revoked). The outlet is stopped at once, its
// pending deliveries dropped, and the Reader told through their other
// outlets and on the settings page; setting its URL again starts it.
// 429 and 5xx are not refusals: they are retried with backoff.
var ErrRefused = errors.New("readernotice: the outlet refused for good")

// Reader is what an outlet knows of the Reader it sends to: who they are,
// their settings as stored now, and their push subscriptions' endpoints.
type Reader struct {
	store.Reader
	Settings store.NotifySettings
	Push     []string
	Stopped  []string // the outlets stopped by a refusal (ErrRefused)
}

// readerOf is the outlets' Reader for a stored Reader, their settings,
// their push endpoints and their stopped outlets.
func readerOf(r store.Reader, s store.NotifySettings, push, stopped []string) Reader {
	return Reader{Reader: r, Settings: s, Push: push, Stopped: stopped}
}

// targets is where a Digest goes through o for r: none while o is
// stopped, else o's own Targets.
func targets(o Outlet, r Reader) []string {
	if contains(r.Stopped, o.Name()) {
		return nil
	}
	return o.Targets(r)
}

// Outlet is one way a Digest reaches a Reader (webhook, ntfy, Discord, Web
// Push). The Atom feed is pull and no Outlet. An Outlet must be safe for
// concurrent use; the sender calls Send for many Readers at once, each
// under a bounded context.
type Outlet interface {
	// Name is the outlet's word: discord, ntfy, webhook or push.
	Name() string
	// Targets lists where the Reader's Digests go through this outlet:
	// none when the Reader has it off, "" for a single target, one
	// endpoint per push subscription.
	Targets(r Reader) []string
	// Send delivers d to one target. An error wrapping ErrGone drops the
	// delivery; one wrapping ErrRefused stops the outlet; any other is
	// retried with backoff. The error's text is
	// shown to the Reader, so it must never hold a secret (a URL's token,
	// the webhook secret).
	Send(ctx context.Context, r Reader, target string, d Digest) error
}
