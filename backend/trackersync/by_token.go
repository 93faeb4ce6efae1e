package trackersync

import (
	"context"
	"errors"
	"fmt"

	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
)

// A tracker whose lists are private (trackers.TokenLister: MangaBaka) is
// read with the Reader's token as well as written with it: there is no
// user name to type, the account's name comes from the token, and pull
// and push both need a connected token. Everything else (the outbox, the
// rules, the pace, whose ids count) is the same as AniList's.

// errNoToken is a pull of a token tracker with no token that opens (none
// stored, refused, or sealed under another key).
var errNoToken = errors.New("trackersync: no usable token for a list read with the token")

// byToken reports whether the tracker's lists are read with the token.
func (s *Service) byToken() bool {
	_, ok := s.svc.(trackers.TokenLister)
	return ok
}

// PullsByToken reports whether service's lists are read with the
// Reader's token (no user name: the API's PUT takes only the switches).
func PullsByToken(service string) bool { return service == "mangabaka" }

// pasteHint is the sentence asking for a whole token.
func pasteHint(service string) string {
	if PullsByToken(service) {
		return fmt.Sprintf("Paste a %s personal access token (it starts with mb-; make one on %s under Settings, API and Apps), whole.",
			titles[service], titles[service])
	}
	return fmt.Sprintf("Paste the token %s shows (its PIN page), whole.", titles[service])
}

// saveByToken sets a token tracker's switches (PUT): the user name stays
// the token account's; pull or push needs a connected token.
func (s *Service) saveByToken(ctx context.Context, readerID int64, pull, push bool) error {
	title := titles[s.name]
	a, err := s.conf.Store.TrackerAccount(ctx, readerID, s.name)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("trackersync: save: %w", err)
	}
	if (pull || push) && !a.Connected() {
		return refuse(fmt.Sprintf("Pull and push need a connected %s token: paste one first.", title))
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil // both off and never connected: nothing to keep
	}
	err = s.conf.Store.PutTrackerSettings(ctx, store.TrackerSettings{ReaderID: readerID, Service: s.name,
		Username: a.Username, Pull: pull, Push: push, Now: s.conf.Now()})
	if err != nil {
		return fmt.Errorf("trackersync: save: %w", err)
	}
	s.Wake()
	return nil
}

// firstToken turns a token tracker's pull and push on when its first
// token connects (none was stored before: a first paste, or one after
// Forget), its first pull due at once; a new token after a refusal keeps
// the Reader's switches. AniList's first token turns push on only
// (store.SetTrackerToken), its pull waiting for a user name.
func (s *Service) firstToken(ctx context.Context, readerID int64, before store.TrackerAccount, account string) error {
	if !s.byToken() || before.HasToken {
		return nil
	}
	err := s.conf.Store.PutTrackerSettings(ctx, store.TrackerSettings{ReaderID: readerID, Service: s.name,
		Username: account, Pull: true, Push: true, Now: s.conf.Now()})
	if err != nil {
		return fmt.Errorf("trackersync: connect: %w", err)
	}
	s.Wake()
	return nil
}

// list reads a claimed Reader's list: by user name, or with their token
// for a token tracker. A token the tracker refuses turns the tracker to
// reconnect (pushes stop) before the pull is failed.
func (s *Service) list(ctx context.Context, c store.TrackerClaim) (trackers.Collection, error) {
	lister, ok := s.svc.(trackers.TokenLister)
	if !ok {
		return s.svc.List(ctx, c.Username)
	}
	title := titles[s.name]
	sealed, err := s.conf.Store.TrackerToken(ctx, c.ReaderID, s.name)
	if errors.Is(err, store.ErrNotFound) {
		return trackers.Collection{}, errNoToken
	}
	if err != nil {
		return trackers.Collection{}, fmt.Errorf("trackersync: pull: %w", err)
	}
	token, err := s.conf.Sealer.Open(sealed, binding(c.ReaderID, s.name))
	if err != nil {
		if rerr := s.reconnect(ctx, c.ReaderID, fmt.Sprintf("The stored %s token no longer opens (the server's key changed); paste a new one.", title)); rerr != nil {
			return trackers.Collection{}, rerr
		}
		return trackers.Collection{}, errNoToken
	}
	coll, err := lister.ListMine(ctx, token)
	if errors.Is(err, trackers.ErrTokenRefused) {
		if rerr := s.reconnect(ctx, c.ReaderID, fmt.Sprintf("%s refused the token (expired or revoked); paste a new one.", title)); rerr != nil {
			return trackers.Collection{}, rerr
		}
	}
	return coll, err
}
