package main

import (
	"log/slog"

	"mangabookmark/backend/config"
	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackersync"
)

// newTrackers builds the tracker services serve runs beside the Lanes
// (AniList and MangaBaka): the pull and push workers and what
// /api/me/trackers answers. Without
// TOKEN_KEY there is none (tokens are sealed under it, and no API call is
// authorised anyway): nil, and those routes answer 503.
func newTrackers(cfg config.Config, st *store.Store, rec trackers.Recorder, log *slog.Logger) (*trackersync.Set, error) {
	if len(cfg.TokenKey) == 0 {
		return nil, nil
	}
	if !cfg.AniListEnabled() {
		log.Info("AniList Connect is off (ANILIST_CLIENT_ID unset); Readers pull by user name and may paste a token")
	}
	return trackersync.SetFromConfig(cfg, st, rec, log.With("component", "trackers"))
}
