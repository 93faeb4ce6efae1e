package main

import (
	"log/slog"

	"mangabookmark/backend/config"
	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/readernotice/netguard"
	"mangabookmark/backend/store"
)

// newReaderNotices builds the Reader notice service serve starts with the
// Lanes: owed notices into Digests, the outlets, the feed.
func newReaderNotices(cfg config.Config, st *store.Store, log *slog.Logger, rec readernotice.Recorder) (*readernotice.Service, error) {
	if cfg.NotifyAllowPrivate {
		log.Warn("NOTIFY_ALLOW_PRIVATE is on: Reader outlet URLs may reach private and loopback addresses")
	}
	return readernotice.New(readernotice.Config{
		Store:      st,
		Log:        log.With("component", "reader-notices"),
		Key:        cfg.TokenKey,
		BaseURL:    cfg.PublicBaseURL,
		Guard:      netguard.Guard{AllowPrivate: cfg.NotifyAllowPrivate},
		DiscordURL: cfg.DiscordReadersWebhookURL,
		Recorder:   rec,
	})
}
