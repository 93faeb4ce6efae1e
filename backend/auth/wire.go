package auth

import (
	"log/slog"
	"net/http"

	"mangabookmark/backend/config"
	"mangabookmark/backend/store"
)

// FromConfig builds the token service from the validated configuration and,
// when Discord login is configured, the handler for api.Config.OAuth (nil
// otherwise, so the server answers 404 on /auth/discord/*).
func FromConfig(st *store.Store, cfg config.Config, log *slog.Logger) (*Service, http.Handler, error) {
	svc, err := New(Config{Store: st, TokenKey: cfg.TokenKey, OwnerDiscordID: cfg.OwnerDiscordID, Log: log})
	if err != nil {
		return nil, nil, err
	}
	if !cfg.OAuthEnabled() {
		return svc, nil, nil
	}
	oauth, err := NewOAuth(svc, OAuthConfig{
		ClientID:     cfg.DiscordClientID,
		ClientSecret: cfg.DiscordClientSecret,
		GuildID:      cfg.DiscordGuildID,
		BaseURL:      cfg.PublicBaseURL,
		Log:          log,
	})
	if err != nil {
		return nil, nil, err
	}
	return svc, oauth, nil
}
