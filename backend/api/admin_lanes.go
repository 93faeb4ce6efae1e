package api

import (
	"context"
	"net/http"
	"time"

	"mangabookmark/backend/api/client"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

func (s *Server) adminLanes(w http.ResponseWriter, r *http.Request) {
	lanes, err := s.adminLaneViews(r.Context(), s.Sites.All())
	if err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, client.LanesResponse{Lanes: lanes})
}

// adminLaneViews reads and derives the given Lanes, in the order given.
func (s *Server) adminLaneViews(ctx context.Context, list []*sites.Site) ([]client.Lane, error) {
	now := s.Now()
	snaps, err := s.Store.AdminLaneSnapshots(ctx, now, adminLaneSites(list))
	if err != nil {
		return nil, err
	}
	counts, err := s.adminLaneCounts(ctx, now)
	if err != nil {
		return nil, err
	}
	holders, err := s.Store.LaneHolders(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]client.Lane, 0, len(snaps))
	for i, snap := range snaps {
		l, err := s.adminLaneView(ctx, now, list[i], snap, counts[snap.Site], holders[snap.Site])
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

func (s *Server) adminLaneView(ctx context.Context, now time.Time, site *sites.Site, snap store.AdminLaneSnapshot,
	n store.AdminLaneCount, h store.Holder) (client.Lane, error) {
	behind := adminBehindBy(now, snap.OldestDueSince)
	due := n.RestDue + snap.ForcedNotRestDue
	// The Lanes' own gate order (lanes.State) on what this process knows.
	in := lanes.StateInput{Now: now, Browser: site.Browser, PausedUntil: snap.PausedUntil,
		RefuseUntil: snap.RefuseUntil, Due: due, BehindBy: behind,
		Urgent: snap.ForcedPending > 0 || (snap.LastPass != nil && lanes.LeftDue(*snap.LastPass))}
	if s.Lanes != nil {
		rt := s.Lanes.Runtime(site.Name)
		in.Enabled, in.NoBrowser, in.BrowserDownUntil = rt.Enabled, rt.NoBrowser, rt.BrowserDownUntil
	}
	// A never-checked Series (a new bookmark) opens the wake gate, as in
	// the pass; the snapshot already knows it.
	in.Urgent = in.Urgent || snap.NeverChecked
	l := client.Lane{
		Site:          site.Name,
		Browser:       site.Browser,
		State:         lanes.State(in),
		RestS:         adminSeconds(site.Rest),
		GapS:          adminSeconds(site.Gap),
		EffectiveGapS: adminSeconds(adminEffectiveGap(site.Gap, n.Series)),
		Series:        n.Series,
		Due:           due,
		BehindByS:     adminSeconds(behind),
		ForcedPending: snap.ForcedPending,
		Failing:       n.Failing,
		RefuseUntil:   adminUTC(snap.RefuseUntil),
		PausedUntil:   adminUTC(snap.PausedUntil),
		PauseReason:   snap.PauseReason,
	}
	if snap.LastPass != nil {
		p := adminPassView(*snap.LastPass)
		l.LastPass = &p
	}
	if h.Holder != "" {
		seen := h.SeenAt.UTC()
		l.LastSeenAt = &seen
		l.Pass = adminLivePass(h, snap.LastPass)
	}
	return l, nil
}

func adminPassView(p store.Pass) client.Pass {
	return client.Pass{
		StartedAt: p.StartedAt.UTC(), FinishedAt: p.FinishedAt.UTC(),
		Due: p.Due, Checked: p.Checked, OK: p.OK, New: p.New, NotFound: p.NotFound,
		NoChapter: p.NoChapter, Unfetchable: p.Unfetchable, Errors: p.Errors,
		Refused: p.Refused, Unreachable: p.Unreachable, Skip: p.Skip,
		BehindByS: adminSeconds(p.BehindBy),
	}
}

func adminSeconds(d time.Duration) int64 { return int64(d / time.Second) }

func adminUTC(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// adminSite resolves {site}, answering 404 naming the known Sites when
// it is not one of them.
func (s *Server) adminSite(w http.ResponseWriter, r *http.Request) (*sites.Site, bool) {
	site := s.siteOr404(w, r.PathValue("site"))
	return site, site != nil
}

// adminLaneAfterAct answers a pause or resume with the Lane as it now stands and
// wakes the running Lane so the act takes effect at once.
func (s *Server) adminLaneAfterAct(w http.ResponseWriter, r *http.Request, site *sites.Site) {
	if s.Lanes != nil {
		s.Lanes.Wake(site.Name)
	}
	lanes, err := s.adminLaneViews(r.Context(), []*sites.Site{site})
	if err != nil || len(lanes) != 1 {
		s.adminInternalError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, lanes[0])
}

func (s *Server) adminInternalError(w http.ResponseWriter, r *http.Request, err error) {
	s.internalError(w, r, "admin request failed", err)
}
