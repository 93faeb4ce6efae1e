package sitesim

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config sets up a simulator.
type Config struct {
	// SeriesPerSite is how many Series each Site has (index 0..n-1).
	// Zero means 100.
	SeriesPerSite int
	// Now is the simulated clock; nil means time.Now.
	Now func() time.Time
	// Epoch is the simulated time at which every Series shows its base
	// chapter; zero means Now() when New runs.
	Epoch time.Time
}

// Sim simulates the six Sites. Its methods are safe for concurrent use.
type Sim struct {
	cfg   Config
	mu    sync.RWMutex
	site  map[string]Behavior
	over  map[string]map[string]Behavior
	hits  map[string]*atomic.Int64
	orig  map[string]string
	srvs  []*http.Server
	done  chan struct{}
	wg    sync.WaitGroup
	close sync.Once
	pubs  pubState // chapters drawn by Publish (publish.go)
}

// New builds a simulator, or an error naming the Config field that
// cannot work (a negative SeriesPerSite); Start or StartOn makes it listen.
func New(cfg Config) (*Sim, error) {
	if cfg.SeriesPerSite < 0 {
		return nil, fmt.Errorf("sitesim: Config.SeriesPerSite is %d: want zero (100) or more", cfg.SeriesPerSite)
	}
	if cfg.SeriesPerSite == 0 {
		cfg.SeriesPerSite = 100
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Epoch.IsZero() {
		cfg.Epoch = cfg.Now()
	}
	s := &Sim{cfg: cfg, site: map[string]Behavior{}, over: map[string]map[string]Behavior{},
		hits: map[string]*atomic.Int64{}, orig: map[string]string{}, done: make(chan struct{})}
	for _, n := range SiteNames {
		s.hits[n] = new(atomic.Int64)
		s.over[n] = map[string]Behavior{}
	}
	return s, nil
}

// Start listens on six free loopback ports, one per Site.
func (s *Sim) Start() error {
	addrs := make([]string, len(SiteNames))
	for i := range addrs {
		addrs[i] = "127.0.0.1:0"
	}
	return s.listen(addrs)
}

// StartOn listens on baseAddr ("127.0.0.1:18080") and the next five ports,
// one per Site in SiteNames order.
func (s *Sim) StartOn(baseAddr string) error {
	host, portStr, err := net.SplitHostPort(baseAddr)
	if err != nil {
		return fmt.Errorf("sitesim: listen address %q: %w", baseAddr, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port <= 0 || port+len(SiteNames) > 65536 {
		return fmt.Errorf("sitesim: listen address %q needs a port with %d free ports from it", baseAddr, len(SiteNames))
	}
	addrs := make([]string, len(SiteNames))
	for i := range addrs {
		addrs[i] = net.JoinHostPort(host, strconv.Itoa(port+i))
	}
	return s.listen(addrs)
}

func (s *Sim) listen(addrs []string) error {
	lns := make([]net.Listener, 0, len(addrs))
	var lc net.ListenConfig
	for _, a := range addrs {
		// Binding a loopback port never blocks: no caller's context to honour.
		ln, err := lc.Listen(context.Background(), "tcp", a)
		if err != nil {
			for _, l := range lns {
				l.Close()
			}
			return fmt.Errorf("sitesim: listen %s: %w", a, err)
		}
		lns = append(lns, ln)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, name := range SiteNames {
		origin := "http://" + lns[i].Addr().String()
		s.orig[name] = origin
		srv := &http.Server{Handler: s.Handler(name), ReadHeaderTimeout: 10 * time.Second}
		s.srvs = append(s.srvs, srv)
		s.wg.Add(1)
		go func(ln net.Listener) {
			defer s.wg.Done()
			// Serve returns ErrServerClosed on Close; any other error means
			// the listener died, which the next request will show.
			_ = srv.Serve(ln)
		}(lns[i])
	}
	return nil
}

// Close stops every listener and releases hanging and endless handlers.
func (s *Sim) Close() {
	s.close.Do(func() {
		close(s.done)
		s.mu.RLock()
		srvs := s.srvs
		s.mu.RUnlock()
		for _, srv := range srvs {
			srv.Close()
		}
		s.wg.Wait()
	})
}

// Origins maps Site name to the simulator's origin for it
// ("http://127.0.0.1:18080"), ready for registry.New.
func (s *Sim) Origins() map[string]string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[string]string, len(s.orig))
	for k, v := range s.orig {
		out[k] = v
	}
	return out
}

// OriginsValue is Origins in SITE_ORIGINS form, in SiteNames order.
func (s *Sim) OriginsValue() string {
	o := s.Origins()
	parts := make([]string, 0, len(o))
	for _, n := range SiteNames {
		if v, ok := o[n]; ok {
			parts = append(parts, n+"="+v)
		}
	}
	return strings.Join(parts, ",")
}

// Origin is the simulator's origin for one Site ("" before Start).
func (s *Sim) Origin(site string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.orig[site]
}

// SeriesPerSite is the number of Series each Site serves.
func (s *Sim) SeriesPerSite() int { return s.cfg.SeriesPerSite }

// SeriesIDs returns the ids of the first n Series of a Site (capped at
// SeriesPerSite).
func (s *Sim) SeriesIDs(site string, n int) []string {
	if n > s.cfg.SeriesPerSite {
		n = s.cfg.SeriesPerSite
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, seriesID(site, i))
	}
	return out
}

// SeriesID returns the id of Series i of a Site.
func (s *Sim) SeriesID(site string, i int) string { return seriesID(site, i) }

// SeriesURL is the Series page URL on the simulator, in the Site's own
// URL shape, so a registry with the simulator's origins canonicalises it.
func (s *Sim) SeriesURL(site, id string) string {
	o := s.Origin(site)
	i, ok := seriesIndex(site, id)
	slug := ""
	if ok {
		slug = slugify(title(site, i))
	}
	switch site {
	case MangaDex:
		return o + "/title/" + id + "/" + slug
	case WeebCentral:
		return o + "/series/" + id + "/" + strings.ReplaceAll(title(site, i), " ", "-")
	case MangaPill:
		return o + "/manga/" + id + "/" + slug
	case Kagane:
		return o + "/series/" + id
	case Comix:
		return o + "/title/" + id
	case Natomanga:
		return o + "/manga/" + id
	}
	return ""
}

// Title is the display title a Series has on the simulator.
func (s *Sim) Title(site, id string) string {
	i, ok := s.lookup(site, id)
	if !ok {
		return ""
	}
	return title(site, i)
}

// SetSite sets the behaviour of every Series of a Site without its own.
func (s *Sim) SetSite(site string, b Behavior) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.site[site] = b
}

// SetSeries sets the behaviour of one Series, overriding its Site's.
func (s *Sim) SetSeries(site, id string, b Behavior) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.over[site] == nil {
		s.over[site] = map[string]Behavior{}
	}
	s.over[site][id] = b
}

// ClearSeries drops a Series' own behaviour.
func (s *Sim) ClearSeries(site, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.over[site], id)
}

// Reset drops every behaviour and zeroes the hit counters.
func (s *Sim) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.site = map[string]Behavior{}
	for _, n := range SiteNames {
		s.over[n] = map[string]Behavior{}
		s.hits[n].Store(0)
	}
}

func (s *Sim) behavior(site, id string) Behavior {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if b, ok := s.over[site][id]; ok {
		return b
	}
	return s.site[site]
}

// Hits counts the requests a Site has answered (covers included).
func (s *Sim) Hits(site string) int64 {
	if c := s.hits[site]; c != nil {
		return c.Load()
	}
	return 0
}

// Latest is the Latest Chapter number a Series shows now ("105", "105.5");
// "" for an unknown Series.
func (s *Sim) Latest(site, id string) string {
	i, ok := s.lookup(site, id)
	if !ok {
		return ""
	}
	return s.series(site, i, s.behavior(site, seriesID(site, i))).latestNumber()
}

func (s *Sim) lookup(site, id string) (int, bool) {
	i, ok := seriesIndex(site, id)
	if !ok || i >= s.cfg.SeriesPerSite {
		return 0, false
	}
	return i, true
}

// Handler serves one Site; Start wires one per listener. Exposed so tests
// can drive a Site without a socket.
func (s *Sim) Handler(site string) http.Handler {
	var h func(http.ResponseWriter, *http.Request)
	switch site {
	case MangaDex:
		h = s.serveMangaDex
	case WeebCentral:
		h = s.serveWeebCentral
	case MangaPill:
		h = s.serveMangaPill
	case Kagane:
		h = s.serveKagane
	case Comix:
		h = s.serveComix
	case Natomanga:
		h = s.serveNatomanga
	default:
		return http.NotFoundHandler()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c := s.hits[site]; c != nil {
			c.Add(1)
		}
		if s.serveBrowserListing(site, w, r) { // listing_browser.go (Kagane's is a POST)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if s.serveReader(site, w, r) { // reader_pages.go
			return
		}
		if s.serveListing(site, w, r) { // listing.go
			return
		}
		h(w, r)
	})
}

// wait sleeps d or until the request or the simulator ends.
func (s *Sim) wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-s.done:
	}
	return false
}
