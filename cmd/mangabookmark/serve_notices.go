package main

import (
	"fmt"
	"log/slog"

	"mangabookmark/backend/config"
	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/readernotice/netguard"
	"mangabookmark/backend/store"
)

// newReaderNotices builds the Reader notice service serve starts with the
// Lanes: owed notices into Digests, the outlets, the feed.
func newReaderNotices(cfg config.Config, st *store.Store, log *slog.Logger, rec readernotice.Recorder) (*readernotice.Service, error) {
	if len(cfg.NotifyAllowNets) > 0 {
		log.Warn("Reader outlet URLs may reach these private networks", "notify_allow_nets", fmt.Sprint(cfg.NotifyAllowNets))
	}
	return readernotice.New(readernotice.Config{
		Store:      st,
		Log:        log.With("component", "reader-notices"),
		Key:        cfg.TokenKey,
		BaseURL:    cfg.PublicBaseURL,
		Guard:      netguard.Guard{AllowNets: cfg.NotifyAllowNets},
		DiscordURL: cfg.DiscordReadersWebhookURL,
		Recorder:   rec,
	})
}
