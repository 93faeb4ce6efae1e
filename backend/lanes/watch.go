package lanes

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"mangabookmark/backend/ownernotice"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// Notices is also the watchdog's Watcher.
var _ Watcher = (*Notices)(nil)

// Watch judges the Site's stall notice from outside its Lane: the
// watchdog of every process calls it periodically, and a process about to
// take over a silent holder calls it first. While the Owner's pause is
// open the episode is held as it is.
func (n *Notices) Watch(ctx context.Context, site *sites.Site, now time.Time) {
	if ctx.Err() != nil {
		return
	}
	log := n.log.With("site", site.Name)
	lr, err := n.st.GetLane(ctx, site.Name)
	if err != nil {
		log.Error("owner notices: watch", "kind", ownernotice.KindStall, "error", err)
		return
	}
	if lr.Paused(now) {
		return
	}
	stall, err := n.st.NoticeStallRun(ctx, site.Name)
	if err != nil {
		log.Error("owner notices: watch", "kind", ownernotice.KindStall, "error", err)
		return
	}
	n.stall(ctx, log, site, stall, now, now.Add(-ownerWindow))
}

// silentRun is a Lane whose holder has gone quiet: no pass row and no
// heartbeat since Since, with Due Series due.
type silentRun struct {
	Since time.Time
	Due   int
}

// silence reports whether the Site's Lane has written no pass row and no
// heartbeat since cutoff while Series are due: the stall a hung holder, a
// blocked store call or a stuck read cause, which write nothing at all.
// With neither a pass row nor a heartbeat ever, the silence runs from when
// the oldest due Series became due.
func (n *Notices) silence(ctx context.Context, site *sites.Site, now, cutoff time.Time) (silentRun, bool, error) {
	sil, err := n.st.NoticeSilence(ctx, site.Name)
	if err != nil {
		return silentRun{}, false, err
	}
	since := latest(sil.LastPass, sil.LastBeat)
	if since != nil && since.After(cutoff) {
		return silentRun{}, false, nil // heard from within the window: the cheap answer
	}
	due, err := n.st.DueSummary(ctx, site.Name, site.Rest, now)
	if err != nil {
		return silentRun{}, false, err
	}
	if since == nil {
		since = due.OldestDueSince
	}
	if due.Due == 0 || since == nil || since.After(cutoff) {
		return silentRun{}, false, nil
	}
	return silentRun{Since: *since, Due: due.Due}, true, nil
}

// stall: the Site's passes keep finding work and checking none (the
// latest pass, pauses aside, had due > 0, checked = 0, skip empty, refused
// = 0, unreachable = 0, and so did every pass back to a first one at least
// ownerWindow old), or its Lane has been silent that long with Series due.
// Both are one kind and one episode.
func (n *Notices) stall(ctx context.Context, log *slog.Logger, site *sites.Site, r store.StallRun, now, cutoff time.Time) {
	link := n.link(ownernotice.PagePath(ownernotice.KindStall, site.Name))
	if r.Passes > 0 && !r.Since.After(cutoff) {
		n.apply(ctx, log, now, verdictOpen, ownernotice.KindStall, site.Name, func() ownernotice.Notice {
			return ownernotice.Notice{Subject: site.Name, DeepLink: link,
				Description: fmt.Sprintf("%s has checked nothing for %s although %d Series are due; look at its Lane in mbctl and at the backend log.",
					site.Name, client.FormatDuration(now.Sub(*r.Since)), r.Due)}
		})
		return
	}
	quiet, silent, err := n.silence(ctx, site, now, cutoff)
	if err != nil {
		log.Error("owner notices: evaluate", "kind", ownernotice.KindStall, "error", err)
		return
	}
	v := verdictClear
	if silent {
		v = verdictOpen
	}
	n.apply(ctx, log, now, v, ownernotice.KindStall, site.Name, func() ownernotice.Notice {
		return ownernotice.Notice{Subject: site.Name, DeepLink: link,
			Description: fmt.Sprintf("%s's Lane has written nothing for %s although %d Series are due: the process holding it may be hung; look at the Lane's last heartbeat in mbctl and at the backend log.",
				site.Name, client.FormatDuration(now.Sub(quiet.Since)), quiet.Due)}
	})
}

// latest is the later of two optional times.
func latest(a, b *time.Time) *time.Time {
	switch {
	case a == nil:
		return b
	case b == nil || a.After(*b):
		return a
	}
	return b
}
