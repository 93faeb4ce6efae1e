package main

import (
	"mangabookmark/backend/config"
	"mangabookmark/backend/trackers"
)

// trackerStates makes the pages' Connect-flow states (bound to the
// session, under a key derived from TOKEN_KEY) when an AniList client is
// set; without one it is nil and the Connect button hides.
func trackerStates(cfg config.Config) (*trackers.States, error) {
	if !cfg.AniListEnabled() {
		return nil, nil //nolint:nilnil // no client: no states, and no error
	}
	return trackers.NewStates(trackers.StatesConfig{TokenKey: cfg.TokenKey})
}
