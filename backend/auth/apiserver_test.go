package auth_test

import (
	"log/slog"
	"net/http"

	"mangabookmark/backend/api"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/store"
)

// init hands the login tests in package auth the real API server; see
// auth.NewAPIServer for why it goes through a hook.
func init() {
	auth.NewAPIServer = func(st *store.Store, svc *auth.Service, oauth http.Handler, log *slog.Logger, baseURL string) http.Handler {
		return api.New(api.Deps{Store: st, Auth: svc, OAuth: oauth, Log: log, BaseURL: baseURL})
	}
}
