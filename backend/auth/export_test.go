package auth

import (
	"log/slog"
	"net/http"

	"mangabookmark/backend/store"
)

// NewSiteServer builds the real API server (backend/api) with the web
// pages (backend/web) mounted and the Discord login given to the pages, as
// serve wires them, for the login tests. api and web import auth, so a
// test in package auth cannot import them itself: the external test
// package sets this hook (apiserver_test.go) before any test runs.
var NewSiteServer func(st *store.Store, svc *Service, oauth *OAuth, ownerID string, log *slog.Logger, baseURL string) http.Handler
