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

// Reader is what an outlet knows of the Reader it sends to: who they are,
// their settings as stored now, and their push subscriptions' endpoints.
type Reader struct {
	store.Reader
	Settings store.NotifySettings
	Push     []string
}

// readerOf is the outlets' Reader for a stored Reader, their settings and
// their push endpoints.
func readerOf(r store.Reader, s store.NotifySettings, push []string) Reader {
	return Reader{Reader: r, Settings: s, Push: push}
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
	// delivery; any other is retried with backoff. The error's text is
	// shown to the Reader, so it must never hold a secret (a URL's token,
	// the webhook secret).
	Send(ctx context.Context, r Reader, target string, d Digest) error
}
