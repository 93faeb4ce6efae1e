package api

import (
	"context"
	"sync"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// adminCountsTTL is how old the large Lane counts (series, rest-due,
// failing) may grow before a background recount starts. At a million Series
// a recount takes a good part of a second; the dashboard asks every few
// seconds, so every answer uses the last finished count and only the first
// request after start waits for one.
const adminCountsTTL = 10 * time.Second

// adminCountCache is the per-Server cache of the large Lane counts.
type adminCountCache struct {
	mu         sync.Mutex
	at         time.Time
	counts     map[string]store.AdminLaneCount
	refreshing bool
}

// adminLaneCounts returns the large counts of every registry Site: fresh
// ones on the first call, else the last finished count, starting a
// background recount when it is older than adminCountsTTL.
func (s *Server) adminLaneCounts(ctx context.Context, now time.Time) (map[string]store.AdminLaneCount, error) {
	c := &s.counts
	c.mu.Lock()
	if c.counts == nil {
		c.mu.Unlock()
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
	counts := c.counts
	if now.Sub(c.at) >= adminCountsTTL && !c.refreshing {
		c.refreshing = true
		go s.recountLanes(c, now)
	}
	c.mu.Unlock()
	return counts, nil
}

func (s *Server) recountLanes(c *adminCountCache, now time.Time) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	counts, err := s.countLanes(ctx, now)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refreshing = false
	if err != nil {
		s.Log.Warn("admin lane recount failed", "error", err)
		return
	}
	c.counts, c.at = counts, now
}

func (s *Server) countLanes(ctx context.Context, now time.Time) (map[string]store.AdminLaneCount, error) {
	rows, err := s.Store.AdminLaneCounts(ctx, now, adminLaneSites(s.Sites.All()))
	if err != nil {
		return nil, err
	}
	out := make(map[string]store.AdminLaneCount, len(rows))
	for _, r := range rows {
		out[r.Site] = r
	}
	return out, nil
}

// adminLaneSites is what the store's Lane queries need of each Site.
func adminLaneSites(list []*sites.Site) []store.AdminLaneSite {
	in := make([]store.AdminLaneSite, len(list))
	for i, site := range list {
		in[i] = store.AdminLaneSite{Site: site.Name, Rest: site.Rest}
	}
	return in
}
