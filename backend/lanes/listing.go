package lanes

import (
	"context"
	"fmt"
	"time"

	"mangabookmark/backend/listing"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// listingOpen reports whether a pass in this state may read the listing:
// the same gates as a read (pause, refusal backoff, no or lost browser)
// hold it; idle and the wake gate do not (the listing is what wakes).
func listingOpen(state string) bool {
	return state == StateIdle || state == StateRunning || state == StateAsleep
}

// listingState loads the Lane's listing state once; later passes keep it
// in memory (this process is the only writer while it holds the Lane).
func (m *Manager) listingState(ctx context.Context, l *lane) (*store.ListingState, error) {
	if l.listing == nil {
		st, err := m.cfg.Store.GetListing(ctx, l.site.Name)
		if err != nil {
			return nil, err
		}
		l.listing = &st
	}
	return l.listing, nil
}

// listingWait is how long until the Lane's listing is due again: zero when
// due now or never read, and the default Rest for a Site without one.
func (m *Manager) listingWait(l *lane, now time.Time) time.Duration {
	if l.site.ListerOf() == nil || l.site.ListingEvery <= 0 {
		return sites.DefaultRest
	}
	wait := l.listingNext.Sub(now)
	if l.listing != nil && l.listing.LastAt != nil {
		wait = max(wait, l.listing.LastAt.Add(l.site.ListingEvery).Sub(now))
	}
	return max(0, wait)
}

// skipListing puts the next listing read off by one ListingEvery: a read
// that could not run (a store error, no Series) must not be retried at
// every pass.
func (m *Manager) skipListing(l *lane) {
	l.listingNext = m.clock.Now().Add(l.site.ListingEvery)
}

// readListing reads the Site's listing when it is due, through the same
// Gap as reads, and makes the Series it names due at once by moving their
// check time back to the due cutoff (never less due than Rest makes them,
// and behind every Series Rest made due first; the ordinary read path
// reads them). It reports
// whether the listing was refused (page 1 or page 2), which counts toward
// the pass's refusal backoff. A failed listing writes no failure row for any Series.
func (m *Manager) readListing(ctx context.Context, l *lane, res *store.Pass) (refused bool) {
	lister := l.site.ListerOf()
	if lister == nil || m.listingWait(l, m.clock.Now()) > 0 {
		return false
	}
	prev, err := m.listingState(ctx, l)
	if err != nil {
		l.log.Error("cannot read the listing state; listing skipped", "error", err)
		m.skipListing(l)
		return false
	}
	if m.listingWait(l, m.clock.Now()) > 0 {
		return false
	}
	eligible, err := m.cfg.Store.CountSeriesUpTo(ctx, l.site.Name, gapCountCap)
	if err != nil {
		l.log.Error("cannot count Series; listing skipped", "error", err)
		m.skipListing(l)
		return false
	}
	if eligible == 0 {
		m.skipListing(l) // nothing followed here: nothing a listing could hint
		return false
	}
	gap := m.gap(l, eligible, m.clock.Now())
	fetch := func(page int) sites.Listing {
		for {
			wait := l.pace.Take(m.clock.Now(), gap)
			if wait <= 0 {
				break
			}
			if err := m.clock.Sleep(ctx, wait); err != nil {
				return sites.Listing{Outcome: sites.Errors, Err: err}
			}
		}
		if err := l.stillOwned(ctx); err != nil {
			return sites.Listing{Outcome: sites.Errors, Err: err}
		}
		return m.fetchListing(ctx, l, lister, page)
	}
	r := listing.Read(fetch, prev.Seen)
	if ctx.Err() != nil {
		return false
	}
	res.Listing = true
	next, n, err := listing.Record(ctx, m.cfg.Store, *prev, r, m.clock.Now(), l.site.Rest)
	if err != nil {
		l.log.Error("cannot record the listing read", "error", err)
		m.skipListing(l)
		return r.Refused()
	}
	l.listing = &next
	res.Hinted = n
	switch {
	case r.Outcome != sites.OK && next.Failures == listing.FailuresToSay:
		l.log.Warn("the listing failed three times in a row; Rest carries on alone", "outcome", r.Outcome, "error", r.Err)
	case r.Outcome != sites.OK:
		l.log.Debug("listing read failed", "outcome", r.Outcome, "error", r.Err)
	case r.Overflow:
		l.log.Info("listing overflow: nothing on it was seen at the last look; Rest covers the rest", "pages", r.Pages)
	}
	return r.Refused()
}

// fetchListing runs the adapter's Listing through the Site's route with
// the read timeout, turning a panic into an errors outcome.
func (m *Manager) fetchListing(ctx context.Context, l *lane, lister sites.Lister, page int) (out sites.Listing) {
	route := m.cfg.Plain
	if l.site.Browser {
		route = m.cfg.Browser
	}
	rctx, cancel := context.WithTimeout(ctx, m.cfg.ReadTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			l.log.Error("listing adapter panicked", "error", fmt.Sprint(p))
			out = sites.Listing{Outcome: sites.Errors, Err: fmt.Errorf("lanes: listing panic: %v", p)}
		}
	}()
	out = lister.Listing(rctx, l.site, route, page)
	if !out.Outcome.Valid() {
		out = sites.Listing{Outcome: sites.Errors, Err: fmt.Errorf("lanes: listing returned outcome %q", out.Outcome)}
	}
	return out
}
