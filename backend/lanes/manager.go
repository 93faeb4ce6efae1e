package lanes

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/startstop"
	"mangabookmark/backend/store"
)

// Evaluator is told at the end of every pass, after its poll_passes row is
// written, so it can judge the Site's state (owner notices). It must not
// block the Lane for long and must handle its own errors. Its ctx ends at
// shutdown (or after 10s), so a pass cut short by Stop may go unjudged.
type Evaluator interface {
	Evaluate(ctx context.Context, site *sites.Site, now time.Time)
}

// Config wires a Manager. Store, Sites and Plain are required.
type Config struct {
	Store   *store.Store
	Sites   *sites.Registry
	Plain   sites.Fetcher // the plain HTTPS route
	Browser sites.Fetcher // the browser route; nil when BROWSER_WS_URL is unset
	Clock   Clock         // nil: RealClock
	Log     *slog.Logger  // nil: discard
	// Enabled is LATEST_CHAPTER_POLL_ENABLED: false starts no Lane.
	Enabled bool
	// OwnerNotices is called at the end of every pass; may be nil.
	OwnerNotices Evaluator
	// CoverClient fetches cover images. Nil (production) builds a client
	// whose dialer refuses private, loopback and link-local addresses except
	// on the exact origin of a Site's private SITE_ORIGINS override. A client given here is
	// used as it is, so only tests should set it.
	CoverClient *http.Client
	// CoverWorkers bounds concurrent cover heals (default 4).
	CoverWorkers int
	// CoverLimit is the largest cover image stored, in bytes (default 2 MiB).
	CoverLimit int64
	// Version is the build named in the cover fetches' User-Agent, as the
	// plain route names it ("dev" when empty).
	Version string
	// ReadTimeout bounds one read of one Series in wall time (default 4m).
	// The routes have tighter limits of their own; this one also covers a
	// browser read's wait for the one shared tab, where two slow reads of
	// other Lanes (about a minute each at most) may queue ahead of it.
	ReadTimeout time.Duration
	// PassSpan bounds how long one pass reads before the next pass takes over
	// (default 5m of Lane time; see passLimit).
	PassSpan time.Duration
	// LockRetry is the wall-time wait between attempts to take a Lane another
	// process holds (default 5s; more than 10s is refused, so a dead
	// holder's Lanes move within 30s).
	LockRetry time.Duration
	// BeatEvery is the wall-time period of a held Lane's heartbeat
	// (default 10s).
	BeatEvery time.Duration
	// TakeoverAfter is how long a holder may write no heartbeat (database
	// clock) before another process ends its lock's session and takes the
	// Lane (default 2m; under three BeatEvery is refused).
	TakeoverAfter time.Duration
	// WatchEvery is the wall-time period of this process's watchdog, which
	// judges the stall notice of every Site, held here or not (default 1m).
	WatchEvery time.Duration
	// ObserveRead, when set, is told how long each finished read of one
	// Series took (Lane time) and its outcome: the /metrics histogram.
	ObserveRead func(site string, outcome sites.Outcome, took time.Duration)
}

// Watcher is an Evaluator that can also judge a Site from outside its Lane
// (the watchdog): Notices is one.
type Watcher interface {
	Watch(ctx context.Context, site *sites.Site, now time.Time)
}

// Runtime is the process-local state of one Lane that the store cannot
// answer (the admin API copies it into its Lane view).
type Runtime struct {
	Enabled          bool       // the poll switch is on
	NoBrowser        bool       // a browser Site with no browser route configured
	BrowserDownUntil *time.Time // the shared browser-lost gate, while closed
}

// Manager runs one Lane per registry Site. Create with New, then Start and
// Stop.
type Manager struct {
	cfg    Config
	clock  Clock
	log    *slog.Logger
	lanes  map[string]*lane
	order  []*lane
	flag   browserFlag
	covers *coverHealer

	id         string        // tells this process's own wakes apart on the wake channel
	listening  chan struct{} // closed once the wake listener first listens
	listenOnce sync.Once

	signals *testSignals // tests only (signals.go)

	loop   startstop.Loop // the Lanes, the wake listener and the watchdog (Start/Stop)
	offLog sync.Once      // "polling is off" is logged once
}

// New checks cfg and builds a Manager; nothing runs until Start. A zero
// field takes the default its comment names; a negative one, a LockRetry
// over 10s or a TakeoverAfter under three BeatEvery is an error naming the
// field.
func New(cfg Config) (*Manager, error) {
	cfg, err := cfg.checked()
	if err != nil {
		return nil, err
	}
	m := &Manager{cfg: cfg, clock: cfg.Clock, log: cfg.Log, lanes: map[string]*lane{}}
	m.listening = make(chan struct{})
	var id [8]byte
	_, _ = rand.Read(id[:])
	m.id = hex.EncodeToString(id[:])
	m.covers = newCoverHealer(cfg, m.log)
	for _, s := range cfg.Sites.All() {
		l := &lane{site: s, pace: cfg.Sites.Pacer(s.Name), wake: make(chan struct{}, 1), log: m.log.With("site", s.Name)}
		m.lanes[s.Name] = l
		m.order = append(m.order, l)
	}
	return m, nil
}

// Start launches, for every Site, the goroutine that takes the Site's Lane
// (when no other process holds it) and runs it, beside the wake listener
// and the watchdog; they run until Stop or until ctx ends. With the poll
// switch off it logs once and starts nothing. Start while they run is a
// no-op; after Stop, Start runs them again (the one shape of
// backend/startstop).
func (m *Manager) Start(ctx context.Context) {
	if !m.cfg.Enabled {
		m.offLog.Do(func() { m.log.Info("polling is off (LATEST_CHAPTER_POLL_ENABLED=false); no Lane runs") })
		return
	}
	m.loop.Start(ctx, m.run)
}

// run is the Manager's background life: every Lane, the wake listener and
// the watchdog, until ctx ends.
func (m *Manager) run(ctx context.Context) {
	m.covers.start(ctx)
	if m.cfg.Browser == nil {
		m.log.Warn("no browser route (BROWSER_WS_URL unset); browser Sites are skipped")
	}
	var wg sync.WaitGroup
	for _, l := range m.order {
		wg.Go(func() { m.own(ctx, l) })
	}
	wg.Go(func() { m.listenWakes(ctx) })
	wg.Go(func() { m.watchdog(ctx) })
	wg.Wait()
}

// Stop cancels every Lane and waits for them and for cover heals to end.
// Lane locks are released as the Lanes stop. Stop before Start, or twice,
// is a no-op.
func (m *Manager) Stop() {
	m.loop.Stop()
	m.covers.wait()
}

// Wake nudges the Site's Lane so a Forced Poll, pause or resume is seen at
// once instead of after the Lane's sleep. The nudge also goes to every other
// process through PostgreSQL (NOTIFY), since the Lane may run elsewhere.
// Unknown Sites are ignored. It waits at most two seconds for the database.
func (m *Manager) Wake(site string) {
	if m.lanes[site] == nil {
		return
	}
	m.nudge(site)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := m.cfg.Store.NotifyLaneWake(ctx, site+"|"+m.id); err != nil {
		m.log.Warn("cannot pass a wake to other processes", "site", site, "error", err)
	}
}

// nudge wakes the Site's Lane in this process, if it runs here.
func (m *Manager) nudge(site string) {
	l := m.lanes[site]
	if l == nil {
		return
	}
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// relay nudges the Lane a wake from another process names; this process's
// own wakes were nudged when sent.
func (m *Manager) relay(payload string) {
	site, from, _ := strings.Cut(payload, "|")
	if from != m.id {
		m.nudge(site)
	}
}

// listenWakes relays wakes sent by any process to this process's Lanes,
// reconnecting after LockRetry when the listening connection fails.
func (m *Manager) listenWakes(ctx context.Context) {
	for ctx.Err() == nil {
		err := m.cfg.Store.ListenLaneWakes(ctx, func() { m.listenOnce.Do(func() { close(m.listening) }) }, m.relay)
		if ctx.Err() != nil {
			return
		}
		m.log.Warn("wake listener lost; retrying", "error", err)
		t := time.NewTimer(m.cfg.LockRetry)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
}

// Listening is closed once the Manager hears wakes from other processes
// (tests wait on it before relying on a cross-process Wake).
func (m *Manager) Listening() <-chan struct{} { return m.listening }

// Runtime reports the process-local state of the Site's Lane.
func (m *Manager) Runtime(site string) Runtime {
	r := Runtime{Enabled: m.cfg.Enabled}
	l := m.lanes[site]
	if l == nil || !l.site.Browser {
		return r
	}
	r.NoBrowser = m.cfg.Browser == nil
	if until, down := m.flag.downUntil(m.clock.Now()); down {
		r.BrowserDownUntil = &until
	}
	return r
}

// WaitCovers blocks until every cover heal started so far has finished.
func (m *Manager) WaitCovers() { m.covers.wait() }
