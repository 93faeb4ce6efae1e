package main

import (
	"log/slog"

	"mangabookmark/backend/auth"
	"mangabookmark/backend/config"
	"mangabookmark/backend/phonesync"
	"mangabookmark/backend/phonesync/merge"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/backend/web"
)

// newPhoneSync builds the phone sync, or nil without TOKEN_KEY (the
// libraries are sealed under a key derived from it; the sync routes then
// answer 503).
func newPhoneSync(cfg config.Config, st *store.Store, reg *sites.Registry, log *slog.Logger) (*phonesync.Service, error) {
	if len(cfg.TokenKey) == 0 {
		return nil, nil
	}
	return phonesync.New(phonesync.Config{Store: st, Sites: reg, TokenKey: []byte(cfg.TokenKey), Log: log.With("component", "phonesync")})
}

// newSyncV2 builds the phone sync's protocol v2 merges over phoneSync
// (its reads out marks what reads made elsewhere passed), or nil when
// the phone sync does not run.
func newSyncV2(cfg config.Config, st *store.Store, phoneSync *phonesync.Service) (*merge.Engine, error) {
	if phoneSync == nil {
		return nil, nil
	}
	c, err := merge.NewCrypt([]byte(cfg.TokenKey))
	if err != nil {
		return nil, err
	}
	return merge.New(st, c, phoneSync)
}

// syncKeys is the Phone sync card's key service: the token service when
// the server runs the phone sync, else none (the card hides).
func syncKeys(ps *phonesync.Service, a *auth.Service) web.SyncKeys {
	if ps == nil || a == nil {
		return nil
	}
	return a
}
