package trackersync

import (
	"context"
	"errors"
	"fmt"

	"mangabookmark/backend/trackers"
	"mangabookmark/client"
)

// Set is every tracker this process syncs, one Service each (AniList,
// MangaBaka), behind the one face the API and the pages use: a call
// naming a tracker goes to its Service, a tracker not in the Set is
// ErrUnknownService. Each Service keeps its own pace, outbox and
// workers; Start and Stop run them all. Safe for concurrent use.
type Set struct {
	svcs []*Service
	by   map[string]*Service
}

// NewSet builds a Set of svcs, in the order GET /api/me/trackers lists
// them; a nil or twice-named Service is an error.
func NewSet(svcs ...*Service) (*Set, error) {
	t := &Set{by: map[string]*Service{}}
	for _, s := range svcs {
		if s == nil {
			return nil, errors.New("trackersync: new set: a nil Service")
		}
		if t.by[s.name] != nil {
			return nil, fmt.Errorf("trackersync: new set: %s twice", s.name)
		}
		t.by[s.name] = s
		t.svcs = append(t.svcs, s)
	}
	return t, nil
}

func (t *Set) get(service string) (*Service, error) {
	if s := t.by[service]; s != nil {
		return s, nil
	}
	return nil, fmt.Errorf("trackersync: %q: %w", service, ErrUnknownService)
}

// Service is the Set's Service for service, or nil.
func (t *Set) Service(service string) *Service { return t.by[service] }

// List is every tracker of the Set as the Reader set it, in order.
func (t *Set) List(ctx context.Context, readerID int64) ([]client.Tracker, error) {
	var out []client.Tracker
	for _, s := range t.svcs {
		ts, err := s.List(ctx, readerID)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	return out, nil
}

// Save is Service.Save on service's tracker.
func (t *Set) Save(ctx context.Context, readerID int64, service, username string, pull, push bool) error {
	s, err := t.get(service)
	if err != nil {
		return err
	}
	return s.Save(ctx, readerID, service, username, pull, push)
}

// SetToken is Service.SetToken on service's tracker.
func (t *Set) SetToken(ctx context.Context, readerID int64, service, token string) error {
	s, err := t.get(service)
	if err != nil {
		return err
	}
	return s.SetToken(ctx, readerID, service, token)
}

// Forget is Service.Forget on service's tracker.
func (t *Set) Forget(ctx context.Context, readerID int64, service string) error {
	s, err := t.get(service)
	if err != nil {
		return err
	}
	return s.Forget(ctx, readerID, service)
}

// PullNow is Service.PullNow on service's tracker.
func (t *Set) PullNow(ctx context.Context, readerID int64, service string) error {
	s, err := t.get(service)
	if err != nil {
		return err
	}
	return s.PullNow(ctx, readerID, service)
}

// Unmatched is Service.Unmatched on service's tracker.
func (t *Set) Unmatched(ctx context.Context, readerID int64, service string) ([]client.TrackerEntry, error) {
	s, err := t.get(service)
	if err != nil {
		return nil, err
	}
	return s.Unmatched(ctx, readerID, service)
}

// OAuthEnabled reports whether service's Connect button shows.
func (t *Set) OAuthEnabled(service string) bool {
	s := t.by[service]
	return s != nil && s.OAuthEnabled(service)
}

// AuthorizeURL is Service.AuthorizeURL on service's tracker.
func (t *Set) AuthorizeURL(service, state string) (string, error) {
	s, err := t.get(service)
	if err != nil {
		return "", err
	}
	return s.AuthorizeURL(service, state)
}

// Exchange is Service.Exchange on service's tracker.
func (t *Set) Exchange(ctx context.Context, readerID int64, service, code string) error {
	s, err := t.get(service)
	if err != nil {
		return err
	}
	return s.Exchange(ctx, readerID, service, code)
}

// States is the first Service's Connect-flow states that has them (one
// key for every tracker: they are built from TOKEN_KEY alike).
func (t *Set) States() *trackers.States {
	for _, s := range t.svcs {
		if st := s.States(); st != nil {
			return st
		}
	}
	return nil
}

// Start runs every Service's workers.
func (t *Set) Start(ctx context.Context) {
	for _, s := range t.svcs {
		s.Start(ctx)
	}
}

// Stop ends every Service's workers and waits for them.
func (t *Set) Stop() {
	for _, s := range t.svcs {
		s.Stop()
	}
}
