package main

import (
	"log/slog"

	"mangabookmark/backend/config"
	"mangabookmark/backend/releasefeed"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// newReleaseFeed builds the release feed serve runs beside the Lanes
// (docs/adr/0030-release-feed-hints.md): nil when RELEASE_FEED is off or
// the poll switch is (nothing would read what it hints here; it sends
// MangaUpdates nothing then). TRACKER_ORIGINS' mangaupdates entry points
// it at another origin.
func newReleaseFeed(cfg config.Config, st *store.Store, reg *sites.Registry, log *slog.Logger) (*releasefeed.Feed, error) {
	if !cfg.ReleaseFeed || !cfg.PollEnabled {
		log.Info("the release feed is off (RELEASE_FEED=off or polling off); nothing is sent to MangaUpdates")
		return nil, nil
	}
	c, err := releasefeed.NewClient(cfg.TrackerOrigins["mangaupdates"], nil)
	if err != nil {
		return nil, &config.Error{Var: "TRACKER_ORIGINS", Reason: err.Error()}
	}
	return releasefeed.New(releasefeed.Config{Store: st, Sites: reg, Client: c, Log: log.With("component", "releasefeed")})
}
