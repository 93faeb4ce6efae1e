package anilist

import (
	"fmt"
	"log/slog"

	"mangabookmark/backend/config"
	"mangabookmark/backend/trackers"
)

// FromConfig builds the process's one AniList Client from the validated
// config (TRACKER_ORIGINS' anilist entry, a Limiter at
// trackers.DefaultPerMinute on the wall clock), and the Connect flow when
// ANILIST_CLIENT_ID is set (nil otherwise: the Connect button hides).
func FromConfig(c config.Config, rec trackers.Recorder, log *slog.Logger) (*Client, *OAuth, error) {
	origin := c.TrackerOrigins[Name]
	client, err := New(Config{Origin: origin, Recorder: rec, Log: log})
	if err != nil {
		return nil, nil, err
	}
	if !c.AniListEnabled() {
		return client, nil, nil
	}
	states, err := trackers.NewStates(trackers.StatesConfig{TokenKey: c.TokenKey})
	if err != nil {
		return nil, nil, fmt.Errorf("anilist: from config: %w", err)
	}
	o, err := NewOAuth(OAuthConfig{ClientID: c.AniListClientID, ClientSecret: c.AniListClientSecret,
		BaseURL: c.PublicBaseURL, States: states, Origin: origin, Recorder: rec})
	if err != nil {
		return nil, nil, err
	}
	return client, o, nil
}
