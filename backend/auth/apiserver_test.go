package auth_test

import (
	"log/slog"
	"net/http"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/api"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/store"
	"mangabookmark/backend/web"
)

// init hands the login tests in package auth the real site; see
// auth.NewSiteServer for why it goes through a hook.
func init() {
	auth.NewSiteServer = func(st *store.Store, svc *auth.Service, oauth *auth.OAuth, ownerID string, log *slog.Logger, baseURL string) http.Handler {
		adm, err := admin.New(admin.Config{Store: st, Log: log})
		if err != nil {
			panic(err)
		}
		srv, err := api.New(api.Config{Store: st, Auth: svc, Admin: adm, Log: log, BaseURL: baseURL})
		if err != nil {
			panic(err)
		}
		pages := web.New(web.Deps{Store: st, Admin: adm, Auth: svc, OwnerDiscordID: ownerID, BaseURL: baseURL, OAuth: oauth, Log: log})
		srv.MountWeb(pages)
		return srv
	}
}
