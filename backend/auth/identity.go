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

// ErrUnavailable, wrapped in Authenticate's error, means the token could
// not be checked (the database did not answer): the API answers 503,
// retryable, never 401, so a client does not throw away a good token during
// an outage.
var ErrUnavailable = errors.New("auth: token store unavailable")
