package auth

import (
	"log/slog"
	"net/http"

	"mangabookmark/backend/store"
)

// NewAPIServer builds the real API server (backend/api) around the token
// service and the OAuth handler, for the login tests. backend/api imports
// auth, so a test in package auth cannot import api itself: the external
// test package sets this hook (apiserver_test.go) before any test runs.
var NewAPIServer func(st *store.Store, svc *Service, oauth http.Handler, log *slog.Logger, baseURL string) http.Handler

// NewSiteServer is NewAPIServer with the web pages mounted and the OAuth
// handler's StartSession wired to them, as serve wires them (set by
// apiserver_test.go for the same reason).
var NewSiteServer func(st *store.Store, svc *Service, oauth *OAuth, ownerID string, log *slog.Logger, baseURL string) http.Handler
