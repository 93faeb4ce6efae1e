package admin

import (
	"context"
	"fmt"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// LaneViews is every Lane in registry order, exactly as GET
// /api/admin/lanes answers it, /admin shows it and /metrics exports it.
func (s *Service) LaneViews(ctx context.Context) ([]client.Lane, error) {
	return s.views(ctx, s.cfg.Sites.All())
}

// Lane is one Lane's view, or an error wrapping ErrNoSite.
func (s *Service) Lane(ctx context.Context, site string) (client.Lane, error) {
	si, err := s.site(site)
	if err != nil {
		return client.Lane{}, err
	}
	ls, err := s.views(ctx, []*sites.Site{si})
	if err != nil {
		return client.Lane{}, err
	}
	return ls[0], nil
}

// views reads and derives the given Lanes, in the order given.
func (s *Service) views(ctx context.Context, list []*sites.Site) ([]client.Lane, error) {
	now := s.cfg.Now()
	snaps, err := s.cfg.Store.AdminLaneSnapshots(ctx, now, laneSites(list))
	if err != nil {
		return nil, fmt.Errorf("admin: lane views: %w", err)
	}
	if len(snaps) != len(list) {
		return nil, fmt.Errorf("admin: lane views: %d snapshots for %d Lanes", len(snaps), len(list))
	}
	counts, err := s.laneCounts(ctx, now)
	if err != nil {
		return nil, fmt.Errorf("admin: lane views: %w", err)
	}
	holders, err := s.cfg.Store.LaneHolders(ctx)
	if err != nil {
		return nil, fmt.Errorf("admin: lane views: %w", err)
	}
	out := make([]client.Lane, 0, len(snaps))
	for i, snap := range snaps {
		out = append(out, s.view(now, list[i], snap, counts[snap.Site], holders[snap.Site]))
	}
	listings, err := s.cfg.Store.ListingStates(ctx)
	if err != nil {
		return nil, fmt.Errorf("admin: lane views: %w", err)
	}
	listingViews(out, list, listings)                    // listing.go
	if err := s.releaseFeedViews(ctx, out); err != nil { // release_feed.go
		return nil, fmt.Errorf("admin: lane views: %w", err)
	}
	return out, nil
}

func (s *Service) view(now time.Time, site *sites.Site, snap store.AdminLaneSnapshot,
	n store.AdminLaneCount, h store.Holder) client.Lane {
	behind := behindBy(now, snap.OldestDueSince)
	due := n.RestDue + snap.ForcedNotRestDue
	// The Lanes' own gate order (lanes.State) on what this process knows.
	in := lanes.StateInput{Now: now, Browser: site.Browser, PausedUntil: snap.PausedUntil,
		RefuseUntil: snap.RefuseUntil, Due: due, BehindBy: behind,
		Urgent: snap.ForcedPending > 0 || (snap.LastPass != nil && lanes.LeftDue(*snap.LastPass))}
	if s.cfg.Lanes != nil {
		rt := s.cfg.Lanes.Runtime(site.Name)
		in.Enabled, in.NoBrowser, in.BrowserDownUntil = rt.Enabled, rt.NoBrowser, rt.BrowserDownUntil
	}
	// A never-checked Series (a new bookmark) opens the wake gate, as in
	// the pass; the snapshot already knows it.
	in.Urgent = in.Urgent || snap.NeverChecked
	l := client.Lane{
		Site:          site.Name,
		Browser:       site.Browser,
		State:         lanes.State(in),
		RestS:         seconds(site.Rest),
		GapS:          seconds(site.Gap),
		EffectiveGapS: seconds(effectiveGap(site, n.Series)),
		Series:        n.Series,
		Due:           due,
		BehindByS:     seconds(behind),
		ForcedPending: snap.ForcedPending,
		Failing:       n.Failing,
		RefuseUntil:   utc(snap.RefuseUntil),
		PausedUntil:   utc(snap.PausedUntil),
		PauseReason:   snap.PauseReason,
	}
	if snap.LastPass != nil {
		p := PassView(*snap.LastPass)
		l.LastPass = &p
	}
	if h.Holder != "" {
		seen := h.SeenAt.UTC()
		l.LastSeenAt = &seen
		l.Pass = livePass(h, snap.LastPass)
	}
	return l
}

// effectiveGap is the pace the Site's Lane of that many Series fetches
// at, as the Lanes reckon it (lanes.EffectiveGap: its Gap, or the hour
// shared among the Series and the listing reads).
func effectiveGap(site *sites.Site, series int) time.Duration {
	eff, _ := lanes.EffectiveGap(site, series)
	return eff
}

// behindBy is how long the oldest due Series has waited since it became
// due, by the Lanes' own reckoning (store.DueStats.BehindBy).
func behindBy(now time.Time, oldestDueSince *time.Time) time.Duration {
	return store.DueStats{OldestDueSince: oldestDueSince}.BehindBy(now)
}

// livePass is the pass in flight the holder last reported, shown only
// while no pass row newer than its start exists (the pass has not ended).
func livePass(h store.Holder, last *store.Pass) *client.LivePass {
	if h.Pass == nil || (last != nil && !h.Pass.StartedAt.After(last.StartedAt)) {
		return nil
	}
	return &client.LivePass{StartedAt: h.Pass.StartedAt.UTC(), Due: h.Pass.Due, Checked: h.Pass.Checked}
}

func seconds(d time.Duration) int64 { return int64(d / time.Second) }

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
