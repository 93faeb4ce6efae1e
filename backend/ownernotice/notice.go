package ownernotice

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// The four kinds of owner notice. The word is stored in owner_notices.kind
// and shown as the embed's footer, so it never changes.
const (
	KindStall          = "stall"
	KindNoBrowserRoute = "no-browser-route"
	KindSidecarDown    = "sidecar-down"
	KindAdapterBroken  = "adapter-broken"
)

// Notice is one message to the Owner about one fault episode.
type Notice struct {
	Kind        string    // one of the Kind words; the embed's footer
	Site        string    // the Site, "" for sidecar-down
	Subject     string    // the embed's title: the Site, or "browser sidecar"
	DeepLink    string    // absolute URL the title links to; "" for none
	Description string    // one sentence: condition, age, repair
	At          time.Time // the pass time; the embed's timestamp
}

// Func sends one Notice. The Lanes hold one; nil means owner notices are
// off (no webhook configured), which keeps every condition testable
// without a wire.
type Func func(ctx context.Context, n Notice) error

// FromWebhook returns the Func for webhookURL, or nil when it is empty, in
// which case it logs once that owner notices are off. Call it once at
// start. A nil client gets a client with a 10s timeout.
func FromWebhook(webhookURL string, client *http.Client, log *slog.Logger) Func {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if webhookURL == "" {
		log.Info("owner notices off: DISCORD_WEBHOOK_URL is not set")
		return nil
	}
	d, err := New(Config{WebhookURL: webhookURL, Client: client, Log: log})
	if err != nil {
		// config.Load refuses such a URL first; this guards other callers.
		log.Error("owner notices off: DISCORD_WEBHOOK_URL is not an absolute http(s) URL")
		return nil
	}
	log.Info("owner notices on: posting to the Discord webhook")
	return d.Send
}
