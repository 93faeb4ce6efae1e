package trackersync

import (
	"errors"
	"fmt"
	"log/slog"

	"mangabookmark/backend/config"
	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist"
	"mangabookmark/backend/trackers/mangabaka"
)

// FromConfig builds the process's Service from the validated config: the
// one AniList client (TRACKER_ORIGINS, the shared Limiter), the Connect
// flow when ANILIST_CLIENT_ID is set, tokens sealed and states signed
// under keys derived from TOKEN_KEY (required). rec counts the requests
// (mangabookmark_tracker_requests_total).
func FromConfig(c config.Config, st *store.Store, rec trackers.Recorder, log *slog.Logger) (*Service, error) {
	if len(c.TokenKey) == 0 {
		return nil, errors.New("trackersync: from config: TOKEN_KEY is unset; tracker tokens are sealed under it")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	al, oauth, err := anilist.FromConfig(c, rec, log.With("service", anilist.Name))
	if err != nil {
		return nil, fmt.Errorf("trackersync: from config: %w", err)
	}
	sealer, err := trackers.NewSealer(c.TokenKey)
	if err != nil {
		return nil, fmt.Errorf("trackersync: from config: %w", err)
	}
	states, err := trackers.NewStates(trackers.StatesConfig{TokenKey: c.TokenKey})
	if err != nil {
		return nil, fmt.Errorf("trackersync: from config: %w", err)
	}
	return New(Config{Store: st, Tracker: al, OAuth: oauth, Sealer: sealer, States: states, Log: log})
}

// SetFromConfig builds every tracker the process syncs from the
// validated config: AniList (FromConfig) and MangaBaka (its one client,
// TRACKER_ORIGINS' mangabaka entry, mangabaka.DefaultPerMinute), their
// tokens sealed under keys derived from TOKEN_KEY.
func SetFromConfig(c config.Config, st *store.Store, rec trackers.Recorder, log *slog.Logger) (*Set, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	al, err := FromConfig(c, st, rec, log)
	if err != nil {
		return nil, err
	}
	mb, err := mangabaka.New(mangabaka.Config{Origin: c.TrackerOrigins[mangabaka.Name], Recorder: rec,
		Log: log.With("service", mangabaka.Name)})
	if err != nil {
		return nil, fmt.Errorf("trackersync: from config: %w", err)
	}
	sealer, err := trackers.NewSealer(c.TokenKey)
	if err != nil {
		return nil, fmt.Errorf("trackersync: from config: %w", err)
	}
	mbs, err := New(Config{Store: st, Tracker: mb, Sealer: sealer, Log: log})
	if err != nil {
		return nil, err
	}
	return NewSet(al, mbs)
}
