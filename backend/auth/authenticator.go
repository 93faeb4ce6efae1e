package auth

import "context"

// Authenticator resolves a bearer token to an Identity. It returns an error
// for a missing, unknown or revoked token (the faces answer 401), or one
// wrapping ErrUnavailable when it cannot tell (503). *Service implements
// it; tests plug in fixed identities. Both HTTP faces (backend/api's
// bearer check, backend/web's token login form) take one.
type Authenticator interface {
	Authenticate(ctx context.Context, token string) (Identity, error)
}

var _ Authenticator = (*Service)(nil)

// SessionCookie is the web pages' session cookie. The JSON API never reads
// it (a cookie must not authenticate /api/*); only the pages and /covers/
// do (docs/adr/0009-web-pages-and-sessions.md).
const SessionCookie = "mb_session"
