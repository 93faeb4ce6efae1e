package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"mangabookmark/backend/auth"
)

// SyncKeyHeader is where a SyncYomi client sends its API key, and the only
// place the sync routes read one.
const SyncKeyHeader = "X-API-Token"

// SyncAuthenticator resolves a sync key (scope sync) to its Reader; any
// other token is an error. *auth.Service implements it.
type SyncAuthenticator interface {
	AuthenticateSync(ctx context.Context, key string) (auth.Identity, error)
}

var _ SyncAuthenticator = (*auth.Service)(nil)

// SyncKey wraps h so it runs only for a live sync key in X-API-Token: a
// missing, malformed, unknown or revoked key, or an API token of scope
// reader, is 401 {"error"}. The handler finds the Reader with
// SyncIdentity. It is the one gate of every sync route (v1 and v2); a sync
// key passes no other gate (reader refuses it).
func (s *Server) SyncKey(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimSpace(r.Header.Get(SyncKeyHeader))
		sa, ok := s.Auth.(SyncAuthenticator)
		if key == "" || !ok {
			writeError(w, http.StatusUnauthorized, "send your sync key as X-API-Token; make one on the settings page, card Phone sync")
			return
		}
		id, err := sa.AuthenticateSync(r.Context(), key)
		if errors.Is(err, auth.ErrUnavailable) {
			s.Log.Warn("sync key check failed: database unavailable", "path", r.URL.Path, "error", err)
			w.Header().Set("Retry-After", "5")
			writeError(w, http.StatusServiceUnavailable, "the server cannot check keys right now because its database does not answer; try again shortly")
			return
		}
		if err != nil || !id.Sync {
			writeError(w, http.StatusUnauthorized, "the sync key is unknown or revoked; make a new one on the settings page, card Phone sync")
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), identityKey{}, id)))
	}
}

// SyncIdentity returns the Reader of the sync key SyncKey let through.
func SyncIdentity(ctx context.Context) (auth.Identity, bool) {
	id, ok := identityFrom(ctx)
	return id, ok && id.Sync
}
