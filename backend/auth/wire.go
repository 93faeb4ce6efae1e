package auth

import (
	"log/slog"

	"mangabookmark/backend/config"
	"mangabookmark/backend/store"
)

// FromConfig builds the token service from the validated configuration and,
// when Discord login is configured, the login web.Deps.OAuth finishes (nil
// otherwise, so the pages answer 404 on /auth/discord/*).
func FromConfig(st *store.Store, cfg config.Config, log *slog.Logger) (*Service, *OAuth, error) {
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
