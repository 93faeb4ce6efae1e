package readernotice

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"mangabookmark/backend/discordhook"
	"mangabookmark/backend/readernotice/netguard"
	"mangabookmark/backend/startstop"
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
	Workers int
	// ReaderSends bounds one Reader's deliveries in flight at once, so a
	// Reader whose outlets hang holds at most this many workers and every
	// other Reader's notices go past; 0: 4, or fewer when Workers is under
	// 8 (half of Workers, at least 1). It must be below Workers (or 1).
	ReaderSends int
	Recorder    Recorder // the measures for /metrics; nil: none
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
	client  *http.Client

	slots chan struct{}  // one per send in flight, Workers deep
	sends sync.WaitGroup // the sends in flight

	sender  startstop.Loop // the background sender (Start/Stop)
	mu      sync.Mutex
	pruneAt time.Time
	sendErr error // the first database error of a send since RunOnce asked
}

// New builds the Service. It starts nothing: call Start for the background
// sender, or RunOnce.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("readernotice: new: a store is required")
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
	switch {
	case cfg.ReaderSends < 0:
		return nil, errors.New("readernotice: new: ReaderSends is negative")
	case cfg.ReaderSends == 0:
		cfg.ReaderSends = max(1, min(4, cfg.Workers/2))
	case cfg.ReaderSends >= cfg.Workers && cfg.ReaderSends > 1:
		return nil, fmt.Errorf("readernotice: new: ReaderSends %d would let one Reader hold all %d Workers", cfg.ReaderSends, cfg.Workers)
	}
	if cfg.Recorder == nil {
		cfg.Recorder = nopRecorder{}
	}
	client := cfg.Guard.Client()
	var hook *discordhook.Hook
	if cfg.DiscordURL != "" {
		h, err := discordhook.New(cfg.DiscordURL, nil)
		if err != nil {
			return nil, fmt.Errorf("readernotice: new: DISCORD_READERS_WEBHOOK_URL: %w", err)
		}
		hook = h
	}
	s := &Service{cfg: cfg, metrics: recorder{cfg.Recorder}, outlets: map[string]Outlet{}, vapid: &vapid{store: cfg.Store},
		client: client, slots: make(chan struct{}, cfg.Workers)}
	builtin := []Outlet{
		discord{hook: hook, baseURL: cfg.BaseURL},
		ntfy{client: client, baseURL: cfg.BaseURL},
		webhook{client: client, now: cfg.Now},
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

// Start runs the sender in the background until Stop. Start twice is a
// no-op.
func (s *Service) Start(ctx context.Context) { s.sender.Start(ctx, s.loop) }

// Stop ends the background sender and waits for its sends in flight,
// which the cancelled context ends (their leases run out and the next
// start sends them again). Stop without Start, or twice, is a no-op.
func (s *Service) Stop() {
	s.sender.Stop()
	s.sends.Wait()
	s.client.CloseIdleConnections()
}

// loop runs a pass each Interval. A pass never waits for its sends: a
// delivery still in flight holds its worker, and the next pass makes the
// next Digests and sends on the workers that are free.
func (s *Service) loop(ctx context.Context) {
	t := time.NewTicker(s.cfg.Interval)
	defer t.Stop()
	for {
		_, err := s.pass(ctx)
		if err == nil {
			err = s.prune(ctx)
		}
		if err != nil && ctx.Err() == nil {
			s.cfg.Log.Warn("sender pass failed", "error", err)
		}
		_ = s.takeSendErr() // logged where it happened
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
// due and waits for those sends, and prunes old rows once an hour. Tests
// call it directly; the background loop runs passes without waiting.
func (s *Service) RunOnce(ctx context.Context) error {
	for {
		claimed, err := s.pass(ctx)
		s.sends.Wait()
		if serr := s.takeSendErr(); err == nil {
			err = serr
		}
		if err != nil {
			return err
		}
		if claimed == 0 {
			// Nothing was due that a worker and the Readers' bounds
			// allowed: every due delivery has been tried.
			return s.prune(ctx)
		}
	}
}

// pass makes every Digest that is due and starts sends for due deliveries
// while workers are free, returning how many it claimed. Deliveries left
// (no worker free, or their Reader at the ReaderSends bound) wait for a
// later pass.
func (s *Service) pass(ctx context.Context) (claimed int, err error) {
	for {
		n, err := s.cfg.Store.MakeDigests(ctx, s.cfg.Now(), batch, func(in store.DigestInput) store.DigestPlan {
			p := plan(in, s.cfg.Now(), s.order)
			s.metrics.owed(p)
			return p
		})
		if err != nil {
			return 0, err
		}
		if n < batch {
			break
		}
	}
	for {
		free := cap(s.slots) - len(s.slots)
		if free == 0 {
			return claimed, nil
		}
		limit := min(free, deliveryBatch)
		n, err := s.deliver(ctx, limit)
		claimed += n
		if err != nil || n < limit {
			return claimed, err
		}
	}
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
