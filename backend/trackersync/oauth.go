package trackersync

import (
	"context"
	"errors"
	"fmt"

	"mangabookmark/backend/trackers"
)

// OAuthEnabled reports whether service's Connect button shows (the Owner
// registered a client: ANILIST_CLIENT_ID and _SECRET).
func (s *Service) OAuthEnabled(service string) bool {
	return service == s.name && s.conf.OAuth != nil
}

// States makes and checks the Connect flow's state, bound to the Reader's
// web session (nil when the Service was built without one). The caller
// makes a state for AuthorizeURL and checks the callback's before
// Exchange; a wrong state exchanges nothing.
func (s *Service) States() *trackers.States { return s.conf.States }

// AuthorizeURL is the tracker's authorize page for the Connect button,
// with the redirect PUBLIC_BASE_URL/trackers/anilist/callback and state
// (made by States().Make for the Reader's session).
func (s *Service) AuthorizeURL(service, state string) (string, error) {
	if err := s.known(service); err != nil {
		return "", err
	}
	if s.conf.OAuth == nil {
		return "", fmt.Errorf("trackersync: authorize url: %s has no registered client: %w", titles[service], ErrUnknownService)
	}
	if state == "" {
		return "", errors.New("trackersync: authorize url: an empty state")
	}
	return s.conf.OAuth.AuthorizeURLFor(state), nil
}

// Exchange trades the callback's code for the Reader's token (the caller
// checked the state), checks it, seals and stores it: connected, state
// ok, pushes on. A refused code or token is a *Refusal.
func (s *Service) Exchange(ctx context.Context, readerID int64, service, code string) error {
	if err := s.known(service); err != nil {
		return err
	}
	if s.conf.OAuth == nil {
		return fmt.Errorf("trackersync: exchange: %s has no registered client: %w", titles[service], ErrUnknownService)
	}
	token, err := s.conf.OAuth.Exchange(ctx, code)
	switch {
	case errors.Is(err, trackers.ErrCodeRefused):
		return refuse(fmt.Sprintf("%s refused the authorization (used, expired, or for another address); connect again.", titles[service]))
	case err != nil:
		return fmt.Errorf("trackersync: exchange: %w: %w", ErrUnavailable, err)
	}
	return s.connect(ctx, readerID, service, token)
}
