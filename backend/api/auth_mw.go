package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"mangabookmark/backend/auth"
)

type identityKey struct{}

// identityFrom returns the auth.Identity the auth middleware attached.
func identityFrom(ctx context.Context) (auth.Identity, bool) {
	id, ok := ctx.Value(identityKey{}).(auth.Identity)
	return id, ok
}

// reader wraps h so it runs only for a valid token of any Reader.
func (s *Server) reader(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := s.authenticate(w, r)
		if !ok {
			return
		}
		if !s.NoLimits {
			leave, ok := s.Budget.Enter(id.ReaderID)
			if !ok {
				writeBusy(w, "too many of your requests in progress (all your tokens count together); wait for the earlier ones to finish and send it again")
				return
			}
			defer leave()
		}
		h(w, r.WithContext(context.WithValue(r.Context(), identityKey{}, id)))
	}
}

// admin wraps h so it runs only for the Owner's token: 401 without a valid
// token, 403 for any other Reader.
func (s *Server) admin(h http.HandlerFunc) http.HandlerFunc {
	return s.reader(func(w http.ResponseWriter, r *http.Request) {
		if id, _ := identityFrom(r.Context()); !id.Owner {
			writeError(w, http.StatusForbidden, "this path is for the Owner only; use the Owner's token")
			return
		}
		h(w, r)
	})
}

func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (auth.Identity, bool) {
	h := r.Header.Get("Authorization")
	token, found := strings.CutPrefix(h, "Bearer ")
	token = strings.TrimSpace(token)
	if !found || token == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="mangabookmark"`)
		writeError(w, http.StatusUnauthorized, "send your API token as Authorization: Bearer <token>")
		return auth.Identity{}, false
	}
	if s.Auth == nil {
		writeError(w, http.StatusUnauthorized, "this server has no token store configured")
		return auth.Identity{}, false
	}
	id, err := s.Auth.Authenticate(r.Context(), token)
	if errors.Is(err, auth.ErrUnavailable) {
		s.Log.Warn("token check failed: database unavailable", "path", r.URL.Path, "error", err)
		w.Header().Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, "the server cannot check tokens right now because its database does not answer; try again shortly")
		return auth.Identity{}, false
	}
	if err != nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="mangabookmark", error="invalid_token"`)
		writeError(w, http.StatusUnauthorized, "the token is unknown or revoked; log in again to get a new one")
		return auth.Identity{}, false
	}
	return id, true
}
