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
	// Sync marks a sync key (scope sync): it calls the sync routes only,
	// and no other token calls them.
	Sync bool
}

// ErrUnavailable means the token could not be checked because the database
// did not answer (Authenticate wraps it): the API answers 503, retryable,
// never 401, so a client does not throw away a good token during an outage.
var ErrUnavailable = errors.New("auth: token store unavailable")
