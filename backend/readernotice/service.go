package readernotice

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"mangabookmark/backend/discordhook"
	"mangabookmark/backend/readernotice/netguard"
	"mangabookmark/backend/store"
)

// Config is the notice service's collaborators and settings.
type Config struct {
	Store *store.Store
	Log   *slog.Logger     // nil: discard
	Now   func() time.Time // nil: time.Now
	// Key is TOKEN_KEY: feed tokens are derived and stored as HMACs under
	// it. Without it there is no feed.
	Key []byte
	// BaseURL is PUBLIC_BASE_URL: the feed URL, the feed's links and the
	// ntfy action point at it.
	BaseURL string
	// Guard checks the Readers' outlet URLs and makes their HTTP client.
	Guard netguard.Guard
	// DiscordURL is DISCORD_READERS_WEBHOOK_URL ("" : no Discord outlet).
	// The Owner sets it, so it is not held to the private-address rule; it
	// carries Discord's secret and is never logged.
	DiscordURL string
	// Extra are outlets beyond the built-in webhook, ntfy, Discord and Web
	// Push.
	Extra []Outlet
	// Interval is how often the sender looks for owed notices and due
	// deliveries; 0: 1 s (the contract asks for at most 5 s).
	Interval time.Duration
	// Workers bounds concurrent sends; 0: 16. A slow outlet holds one
	// worker for at most the guard's timeout, never the others.
	Workers  int
	Recorder Recorder // the measures for /metrics; nil: none
}

// Service owes, groups and sends Reader notices, and answers the settings
// and feed requests of the HTTP faces.
type Service struct {
	cfg     Config
	metrics recorder
	outlets map[string]Outlet
	order   []Outlet
	vapid   *vapid   // the Web Push key pair (vapid.go)
	tests   testGate // the test notices' pace (test_notice.go)

	mu      sync.Mutex
	cancel  context.CancelFunc
	done    chan struct{}
	pruneAt time.Time
}

// New builds the Service. It starts nothing: call Start for the background
// sender, or RunOnce.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("digest: new: a store is required")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Interval <= 0 {
		cfg.Interval = time.Second
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 16
	}
	if cfg.Recorder == nil {
		cfg.Recorder = nopRecorder{}
	}
	client := cfg.Guard.Client()
	var hook *discordhook.Hook
	if cfg.DiscordURL != "" {
		h, err := discordhook.New(cfg.DiscordURL, nil)
		if err != nil {
			return nil, fmt.Errorf("digest: new: DISCORD_READERS_WEBHOOK_URL: %w", err)
		}
		hook = h
	}
	s := &Service{cfg: cfg, metrics: recorder{cfg.Recorder}, outlets: map[string]Outlet{}, vapid: &vapid{store: cfg.Store}}
	builtin := []Outlet{
		discord{hook: hook},
		ntfy{client: client, baseURL: cfg.BaseURL},
		webhook{client: client},
		push{client: client, store: cfg.Store, keys: s.vapid, subject: pushSubject(cfg.BaseURL), baseURL: cfg.BaseURL},
	}
	for _, o := range append(builtin, cfg.Extra...) {
		s.outlets[o.Name()] = o
		s.order = append(s.order, o)
	}
	return s, nil
}

// DiscordAvailable reports whether the Owner configured the readers'
// Discord channel.
func (s *Service) DiscordAvailable() bool { return s.cfg.DiscordURL != "" }

// Start runs the sender in the background until Stop.
func (s *Service) Start(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		return
	}
	ctx, s.cancel = context.WithCancel(ctx)
	s.done = make(chan struct{})
	go s.loop(ctx, s.done)
}

// Stop ends the background sender and waits for its sends in flight.
func (s *Service) Stop() {
	s.mu.Lock()
	cancel, done := s.cancel, s.done
	s.cancel = nil
	s.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

func (s *Service) loop(ctx context.Context, done chan struct{}) {
	defer close(done)
	t := time.NewTicker(s.cfg.Interval)
	defer t.Stop()
	for {
		if err := s.RunOnce(ctx); err != nil && ctx.Err() == nil {
			s.cfg.Log.Warn("reader notices: sender pass failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Batch sizes: how many Readers one digest transaction claims (each claim
// evaluates the owed notices whole, so fewer, larger claims drain a big
// fan-out faster), and how many deliveries one claim leases.
const (
	batch         = 500
	deliveryBatch = 100
)

// lease is how long a claimed delivery is another sender's to skip: longer
// than any send (the guard's timeout), short enough that a crashed
// sender's deliveries go out again soon.
const lease = 2 * time.Minute

// RunOnce makes every Digest that is due, sends every delivery that is
// due, and prunes old rows once an hour. Tests call it directly.
func (s *Service) RunOnce(ctx context.Context) error {
	for {
		n, err := s.cfg.Store.MakeDigests(ctx, s.cfg.Now(), batch, func(in store.DigestInput) store.DigestPlan {
			p := plan(in, s.cfg.Now(), s.order)
			s.metrics.owed(p)
			return p
		})
		if err != nil {
			return err
		}
		if n < batch {
			break
		}
	}
	for {
		n, err := s.deliver(ctx)
		if err != nil {
			return err
		}
		if n < deliveryBatch {
			break
		}
	}
	return s.prune(ctx)
}

// Retention of the notice tables.
const (
	EventsKept     = 90 * 24 * time.Hour // Chapter Events (and the notices they owed)
	DeliveriesKept = 7 * 24 * time.Hour  // settled deliveries
)

func (s *Service) prune(ctx context.Context) error {
	now := s.cfg.Now()
	s.mu.Lock()
	due := !now.Before(s.pruneAt)
	if due {
		s.pruneAt = now.Add(time.Hour)
	}
	s.mu.Unlock()
	if !due {
		return nil
	}
	if _, err := s.cfg.Store.PruneChapterEvents(ctx, now.Add(-EventsKept)); err != nil {
		return err
	}
	if _, err := s.cfg.Store.PruneDeliveries(ctx, now.Add(-DeliveriesKept)); err != nil {
		return err
	}
	// The claim's plan depends on fresh statistics of the notice tables,
	// which a fan-out to many Readers grows fast (ADR 0016).
	return s.cfg.Store.AnalyzeNotices(ctx)
}
