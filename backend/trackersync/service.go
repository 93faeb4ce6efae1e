package trackersync

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"mangabookmark/backend/startstop"
	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist"
	"mangabookmark/backend/trackers/mangabaka"
	"mangabookmark/client"
)

// Defaults of Config.
const (
	// DefaultPullEvery is how often a Reader's list is pulled.
	DefaultPullEvery = 15 * time.Minute
	// DefaultPushWindow is how long the reads of one media gather into one
	// write.
	DefaultPushWindow = time.Minute
	// DefaultTick is how often the workers look for due work.
	DefaultTick = 15 * time.Second
	// DefaultLease is how long a process holds a Reader's pull.
	DefaultLease = 10 * time.Minute
	// maxBackOff bounds a failing pull's or push's wait.
	maxBackOff = 6 * time.Hour
	// pushBackOff is how long a Reader's pushes wait after the tracker was
	// unreachable or rate limiting.
	pushBackOff = 5 * time.Minute
	// maxUsername bounds a user name (AniList's are at most 20 characters).
	maxUsername = 64
)

// kinds maps a tracker to the series_ids kind its media ids are.
var kinds = map[string]string{anilist.Name: "al", mangabaka.Name: "mb"}

// titles are the trackers' names in a sentence.
var titles = map[string]string{anilist.Name: "AniList", mangabaka.Name: "MangaBaka"}

// Service is the Readers' trackers: settings, token, pull and push. Safe
// for concurrent use.
type Service struct {
	conf  Config
	svc   trackers.Service
	name  string
	kind  string
	owner string
	wake  chan struct{}
	loop  startstop.Loop
	// turn is the push's round robin: the Reader whose push went last.
	turn struct {
		sync.Mutex
		after int64
	}
}

// Config configures a Service.
type Config struct {
	Store *store.Store
	// Tracker is the tracker (the process's one AniList client, whose
	// Limiter paces every Reader together).
	Tracker trackers.Service
	// OAuth is the Connect flow (nil: no Connect button; a pasted token
	// still works).
	OAuth *anilist.OAuth
	// Sealer seals tokens (required: built from TOKEN_KEY).
	Sealer *trackers.Sealer
	// States makes and checks the Connect flow's state (nil: none).
	States *trackers.States
	Log    *slog.Logger
	Now    func() time.Time // nil: time.Now
	// PullEvery, PushWindow, Tick, Lease: 0 takes the defaults.
	PullEvery, PushWindow, Tick, Lease time.Duration
	// Owner names this process in the pull lease (""): a random name).
	Owner string
}

// New builds a Service, or an error naming the Config field that cannot
// work.
func New(c Config) (*Service, error) {
	switch {
	case c.Store == nil:
		return nil, errors.New("trackersync: new: Config.Store is nil")
	case c.Tracker == nil:
		return nil, errors.New("trackersync: new: Config.Tracker is nil")
	case c.Sealer == nil:
		return nil, errors.New("trackersync: new: Config.Sealer is nil (tokens are sealed under TOKEN_KEY)")
	case kinds[c.Tracker.Name()] == "":
		return nil, fmt.Errorf("trackersync: new: no series id kind for tracker %q", c.Tracker.Name())
	case c.PullEvery < 0 || c.PushWindow < 0 || c.Tick < 0 || c.Lease < 0:
		return nil, errors.New("trackersync: new: a negative PullEvery, PushWindow, Tick or Lease")
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.PullEvery == 0 {
		c.PullEvery = DefaultPullEvery
	}
	if c.PushWindow == 0 {
		c.PushWindow = DefaultPushWindow
	}
	if c.Tick == 0 {
		c.Tick = DefaultTick
	}
	if c.Lease == 0 {
		c.Lease = DefaultLease
	}
	if c.Owner == "" {
		b := make([]byte, 8)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("trackersync: new: owner name: %w", err)
		}
		c.Owner = "trackersync-" + hex.EncodeToString(b)
	}
	name := c.Tracker.Name()
	return &Service{conf: c, svc: c.Tracker, name: name, kind: kinds[name], owner: c.Owner,
		wake: make(chan struct{}, 1)}, nil
}

func (s *Service) known(service string) error {
	if service != s.name {
		return fmt.Errorf("trackersync: %q: %w", service, ErrUnknownService)
	}
	return nil
}

// binding is the row a token is sealed for: a sealed token copied to
// another Reader's row does not open.
func binding(readerID int64, service string) string {
	return fmt.Sprintf("reader:%d:%s", readerID, service)
}

// List is what GET /api/me/trackers answers: every tracker this build
// knows, as the Reader set it ("off", no user name, when never set).
func (s *Service) List(ctx context.Context, readerID int64) ([]client.Tracker, error) {
	accts, err := s.conf.Store.TrackerAccounts(ctx, readerID)
	if err != nil {
		return nil, fmt.Errorf("trackersync: list: %w", err)
	}
	out := []client.Tracker{{Service: s.name, State: store.TrackerOff, Skipped: []client.TrackerSkip{}}}
	for _, a := range accts {
		if a.Service == s.name {
			out[0] = client.Tracker{Service: a.Service, Username: a.Username, Pull: a.Pull, Push: a.Push,
				Connected: a.Connected(), State: a.State, LastPullAt: a.LastPullAt, LastPushAt: a.LastPushAt, Error: a.Error,
				Skipped: []client.TrackerSkip{}}
		}
	}
	if out[0].State == store.TrackerOff {
		return out, nil
	}
	_, skips, err := s.conf.Store.TrackerMarks(ctx, readerID, s.kind)
	if err != nil {
		return nil, fmt.Errorf("trackersync: list: %w", err)
	}
	for _, k := range skips {
		out[0].Skipped = append(out[0].Skipped, client.TrackerSkip{Site: k.Site, SeriesID: k.SeriesID, Title: k.Title, MediaIDs: k.MediaIDs})
	}
	return out, nil
}

// Save sets the Reader's user name and switches (PUT). A user name the
// tracker does not know, or push without a connected token, is a
// *Refusal; a tracker that cannot answer now is ErrUnavailable. With pull
// on, the first pull is due at once.
func (s *Service) Save(ctx context.Context, readerID int64, service, username string, pull, push bool) error {
	if err := s.known(service); err != nil {
		return err
	}
	if s.byToken() {
		return s.saveByToken(ctx, readerID, pull, push)
	}
	username = strings.TrimSpace(username)
	switch {
	case len(username) > maxUsername || !utf8.ValidString(username):
		return refuse(fmt.Sprintf("A %s user name is at most %d characters.", titles[service], maxUsername))
	case username == "" && (pull || push):
		return refuse(fmt.Sprintf("Pull and push need your %s user name.", titles[service]))
	}
	if push {
		a, err := s.conf.Store.TrackerAccount(ctx, readerID, service)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("trackersync: save: %w", err)
		}
		if !a.Connected() {
			return refuse(fmt.Sprintf("Push needs a connected %s token: use Connect, or paste a token first.", titles[service]))
		}
	}
	if username != "" {
		if err := s.checkUser(ctx, username); err != nil {
			if errors.Is(err, trackers.ErrNoSuchUser) {
				return refuse(fmt.Sprintf("%s knows no user named %q, or their list is private.", titles[service], username))
			}
			return fmt.Errorf("trackersync: save: check user name: %w: %w", ErrUnavailable, err)
		}
	}
	err := s.conf.Store.PutTrackerSettings(ctx, store.TrackerSettings{ReaderID: readerID, Service: service,
		Username: username, Pull: pull, Push: push, Now: s.conf.Now()})
	if err != nil {
		return fmt.Errorf("trackersync: save: %w", err)
	}
	s.Wake()
	return nil
}

// userChecker is a tracker that can tell a user exists without reading
// their whole list (anilist.Client: one entry).
type userChecker interface {
	CheckUser(ctx context.Context, user string) error
}

// checkUser asks the tracker whether user has a readable list: one
// request where the tracker can, else the list itself.
func (s *Service) checkUser(ctx context.Context, user string) error {
	if c, ok := s.svc.(userChecker); ok {
		return c.CheckUser(ctx, user)
	}
	_, err := s.svc.List(ctx, user)
	return err
}

// SetToken checks a pasted token with the tracker (its account), seals
// and stores it: the tracker is connected (state ok) and pushes are on.
// A refused token, or one of another account than the user name set, is
// a *Refusal.
func (s *Service) SetToken(ctx context.Context, readerID int64, service, token string) error {
	if err := s.known(service); err != nil {
		return err
	}
	token = strings.TrimSpace(token)
	if token == "" || len(token) > 16<<10 {
		return refuse(pasteHint(service))
	}
	if s.byToken() && !strings.HasPrefix(token, "mb-") {
		return refuse(pasteHint(service))
	}
	return s.connect(ctx, readerID, service, token)
}

// connect is SetToken and Exchange's common end.
func (s *Service) connect(ctx context.Context, readerID int64, service, token string) error {
	acct, err := s.svc.Viewer(ctx, token)
	switch {
	case errors.Is(err, trackers.ErrTokenRefused):
		return refuse(fmt.Sprintf("%s refused this token (expired, revoked or mistyped).", titles[service]))
	case err != nil:
		return fmt.Errorf("trackersync: connect: %w: %w", ErrUnavailable, err)
	}
	cur, err := s.conf.Store.TrackerAccount(ctx, readerID, service)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("trackersync: connect: %w", err)
	}
	if s.byToken() && cur.HasToken && !strings.EqualFold(cur.Username, acct.Name) {
		return refuse(fmt.Sprintf("This token is %s user %q's, not %q's: forget %s here first to connect another account.",
			titles[service], acct.Name, cur.Username, titles[service]))
	}
	if !s.byToken() && cur.Username != "" && !strings.EqualFold(cur.Username, acct.Name) {
		return refuse(fmt.Sprintf("This token is %s user %q's, not %q's: set that user name, or connect as %q.",
			titles[service], acct.Name, cur.Username, cur.Username))
	}
	sealed, err := s.conf.Sealer.Seal(token, binding(readerID, service))
	if err != nil {
		return fmt.Errorf("trackersync: connect: %w", err)
	}
	if err := s.conf.Store.SetTrackerToken(ctx, readerID, service, sealed, acct.Name); err != nil {
		return fmt.Errorf("trackersync: connect: %w", err)
	}
	if err := s.firstToken(ctx, readerID, cur, acct.Name); err != nil {
		return err
	}
	s.conf.Log.Info("tracker connected", "reader_id", readerID, "service", service)
	return nil
}

// Forget drops the Reader's tracker: user name, token, remembered counts
// (DELETE). Forgetting one never set is not an error.
func (s *Service) Forget(ctx context.Context, readerID int64, service string) error {
	if err := s.known(service); err != nil {
		return err
	}
	if err := s.conf.Store.DeleteTrackerAccount(ctx, readerID, service); err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("trackersync: forget: %w", err)
	}
	return nil
}

// PullNow makes the Reader's pull due now and wakes the puller (POST
// .../pull, 202). A *Refusal when pull is off or no user name is set.
func (s *Service) PullNow(ctx context.Context, readerID int64, service string) error {
	if err := s.known(service); err != nil {
		return err
	}
	ok, err := s.conf.Store.TrackerPullNow(ctx, readerID, service, s.conf.Now())
	if err != nil {
		return fmt.Errorf("trackersync: pull now: %w", err)
	}
	if !ok && s.byToken() {
		return refuse(fmt.Sprintf("Paste your %s token and turn pull on first.", titles[service]))
	}
	if !ok {
		return refuse(fmt.Sprintf("Set your %s user name and turn pull on first.", titles[service]))
	}
	s.Wake()
	return nil
}

// Unmatched lists the last pull's entries no bookmark matched ("not on a
// Site we read yet"), at most store.MaxTrackerUnmatched. The list
// document asks no titles, so Title is empty: the card links the media id.
func (s *Service) Unmatched(ctx context.Context, readerID int64, service string) ([]client.TrackerEntry, error) {
	if err := s.known(service); err != nil {
		return nil, err
	}
	es, err := s.conf.Store.TrackerUnmatched(ctx, readerID, service)
	if err != nil {
		return nil, fmt.Errorf("trackersync: unmatched: %w", err)
	}
	out := make([]client.TrackerEntry, len(es))
	for i, e := range es {
		out[i] = client.TrackerEntry{MediaID: e.MediaID, Progress: e.Progress}
	}
	return out, nil
}

// Wake makes the workers look for due work now.
func (s *Service) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}
