package auth

import "errors"

// Identity is who a valid token belongs to. The HTTP layer (backend/api)
// attaches it to each request it lets through.
type Identity struct {
	ReaderID  int64
	TokenID   int64
	DiscordID string
	Name      string
	Owner     bool
}

// ErrUnavailable means the token could not be checked because the database
// did not answer (Authenticate wraps it): the API answers 503, retryable,
// never 401, so a client does not throw away a good token during an outage.
var ErrUnavailable = errors.New("auth: token store unavailable")
