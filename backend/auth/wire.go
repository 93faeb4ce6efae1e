package auth

import (
	"log/slog"
	"net/http"

	"mangabookmark/backend/config"
	"mangabookmark/backend/store"
)

// FromConfig builds the token service from the validated configuration and,
// when Discord login is configured, the handler for api.Deps.OAuth (nil
// otherwise, so the server answers 404 on /auth/discord/*).
func FromConfig(st *store.Store, cfg config.Config, log *slog.Logger) (*Service, http.Handler) {
	svc := New(st, cfg.TokenKey, cfg.OwnerDiscordID).WithLogger(log)
	if !cfg.OAuthEnabled() {
		return svc, nil
	}
	return svc, NewOAuth(svc, OAuthConfig{
		ClientID:     cfg.DiscordClientID,
		ClientSecret: cfg.DiscordClientSecret,
		GuildID:      cfg.DiscordGuildID,
		BaseURL:      cfg.PublicBaseURL,
		Log:          log,
	})
}
