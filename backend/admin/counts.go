package admin

import (
	"context"
	"sync"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/startstop"
	"mangabookmark/backend/store"
)

// CountsTTL is how old the large Lane counts (series, rest-due, failing)
// may grow before a recount. At a million Series a recount takes a good
// part of a second; the dashboard asks every few seconds, so once Start
// has run every answer uses the last finished count, the recount runs in
// the background, and only the first read after start waits for one.
const CountsTTL = 10 * time.Second

// recountTimeout bounds one background recount.
const recountTimeout = time.Minute

// countCache holds the last finished count and the background recounter.
type countCache struct {
	mu         sync.Mutex
	at         time.Time
	counts     map[string]store.AdminLaneCount
	refreshing bool
	kick       chan time.Time // made at the first Start; the recounter reads it
	running    bool           // between Start and Stop: stale counts are recounted in the background
	loop       startstop.Loop
	recounted  func() // test signal: a background recount finished
}

// Start runs the background recounter until Stop (or ctx ends). Before
// Start, a read of stale counts recounts in line. Start twice is a no-op.
func (s *Service) Start(ctx context.Context) {
	c := &s.counts
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kick == nil {
		c.kick = make(chan time.Time, 1)
	}
	kick := c.kick
	if c.loop.Start(ctx, func(ctx context.Context) { s.recountLoop(ctx, kick) }) {
		c.running = true
	}
}

// Stop ends the background recounter and waits for it, so no recount
// outlives the store. Stop without Start, or twice, is a no-op.
func (s *Service) Stop() {
	c := &s.counts
	c.mu.Lock()
	c.running = false
	c.mu.Unlock()
	c.loop.Stop()
}

func (s *Service) recountLoop(ctx context.Context, kick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-kick:
			s.recount(ctx, now)
		}
	}
}

// recount replaces the counts with a fresh count taken at now.
func (s *Service) recount(ctx context.Context, now time.Time) {
	ctx, cancel := context.WithTimeout(ctx, recountTimeout)
	defer cancel()
	counts, err := s.countLanes(ctx, now)
	c := &s.counts
	c.mu.Lock()
	c.refreshing = false
	if err != nil {
		s.cfg.Log.Warn("admin lane recount failed", "error", err)
	} else if c.at.Before(now) {
		c.counts, c.at = counts, now
	}
	signal := c.recounted
	c.mu.Unlock()
	if signal != nil {
		signal()
	}
}

// laneCounts returns the large counts of every registry Site: fresh ones
// on the first call, else the last finished count, asking the background
// recounter for a new one when it is older than CountsTTL (or recounting
// in line when Start has not run).
func (s *Service) laneCounts(ctx context.Context, now time.Time) (map[string]store.AdminLaneCount, error) {
	c := &s.counts
	c.mu.Lock()
	stale := c.counts == nil || now.Sub(c.at) >= CountsTTL
	if c.counts != nil && stale && c.running {
		if !c.refreshing {
			c.refreshing = true
			c.kick <- now // buffered 1 and only sent while not refreshing: never blocks
		}
		stale = false
	}
	counts := c.counts
	c.mu.Unlock()
	if !stale {
		return counts, nil
	}
	counts, err := s.countLanes(ctx, now)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.counts == nil || c.at.Before(now) {
		c.counts, c.at = counts, now
	}
	c.mu.Unlock()
	return counts, nil
}

func (s *Service) countLanes(ctx context.Context, now time.Time) (map[string]store.AdminLaneCount, error) {
	rows, err := s.cfg.Store.AdminLaneCounts(ctx, now, laneSites(s.cfg.Sites.All()))
	if err != nil {
		return nil, err
	}
	out := make(map[string]store.AdminLaneCount, len(rows))
	for _, r := range rows {
		out[r.Site] = r
	}
	return out, nil
}

// laneSites is what the store's Lane queries need of each Site.
func laneSites(list []*sites.Site) []store.AdminLaneSite {
	in := make([]store.AdminLaneSite, len(list))
	for i, site := range list {
		in[i] = store.AdminLaneSite{Site: site.Name, Rest: site.Rest}
	}
	return in
}
