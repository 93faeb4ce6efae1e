package lanes

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// RunPass runs one pass of the Site's Lane now and returns its result and
// the pace to wait before the next. The Lane goroutine calls the same code;
// tests call RunPass to drive a Lane step by step. An unknown Site returns
// a zero result and an error-free zero pace.
func (m *Manager) RunPass(ctx context.Context, site string) (store.Pass, time.Duration) {
	l := m.lanes[site]
	if l == nil {
		return store.Pass{Site: site}, 0
	}
	return m.runPass(ctx, l)
}

// runPass is one pass: gates, due read, fetches in turn with the effective
// gap between them, outcome writes. Every return goes through the deferred
// record (one poll_passes row, pruning, the notices hook).
func (m *Manager) runPass(ctx context.Context, l *lane) (res store.Pass, pace time.Duration) {
	l.passMu.Lock()
	defer l.passMu.Unlock()
	s := l.site
	now := m.clock.Now()
	res = store.Pass{Site: s.Name, StartedAt: now}
	defer func() { m.record(ctx, l, &res) }()
	l.beat.progress(0)

	if err := l.stillOwned(ctx); err != nil {
		res.Skip = SkipLockLost
		l.log.Warn("Lane lock lost", "error", err)
		return res, 0
	}
	lr, err := m.cfg.Store.GetLane(ctx, s.Name)
	if err != nil {
		return m.storeError(ctx, l, &res, err)
	}
	in := StateInput{Now: now, Enabled: true, Browser: s.Browser, NoBrowser: m.cfg.Browser == nil,
		PausedUntil: lr.PausedUntil, RefuseUntil: lr.RefuseUntil}
	if until, down := m.flag.downUntil(now); down {
		in.BrowserDownUntil = &until
	}
	// A gate that stops the Lane outright records due and behind-by best
	// effort; every other state needs them.
	due, dueErr := m.cfg.Store.DueSummary(ctx, s.Name, s.Rest, now)
	if dueErr == nil {
		in.Due, in.BehindBy = due.Due, due.BehindBy(now)
		res.Due, res.BehindBy = in.Due, in.BehindBy
	}
	// Someone waits for a read (a Forced Poll, a new bookmark never read),
	// or the last pass stopped with Series left due.
	in.Urgent = due.Forced > 0 || due.NeverChecked > 0 || LeftDue(l.last)
	state := State(in)
	listRefused := false
	if dueErr == nil && listingOpen(state) && m.listingWait(l, now) == 0 {
		// The listing may make Series due: read what is due again after it.
		listRefused = m.readListing(ctx, l, &res)
		if ctx.Err() != nil {
			res.Skip = SkipStopped
			return res, 0
		}
		now = m.clock.Now()
		due, dueErr = m.cfg.Store.DueSummary(ctx, s.Name, s.Rest, now)
		if dueErr == nil {
			in.Now, in.Due, in.BehindBy = now, due.Due, due.BehindBy(now)
			res.Due, res.BehindBy = in.Due, in.BehindBy
		}
		// A Series the listing just hinted opens the wake gate: the tab
		// was just used for the listing, and reading at once is what the
		// hint is for (a browser Lane would otherwise hold a hint of fewer
		// than WakeGateDue Series for up to WakeGateWait).
		in.Urgent = due.Forced > 0 || due.NeverChecked > 0 || LeftDue(l.last) || res.Hinted > 0
		state = State(in)
	}
	if state == StateAsleep && dueErr == nil && m.releaseHinted(ctx, l, in.Now) {
		// The release feed hinted a Series here: read it now, as after
		// the Lane's own listing hint (release.go).
		in.Urgent = true
		state = State(in)
	}
	if skip, gated := stateSkip[state]; gated {
		res.Skip = skip
		wait := m.gateWait(state, in, lr, due)
		if state == StateAsleep {
			// The gate holds fewer than WakeGateDue Series: wake when the
			// WakeGateDue-th falls due, not only when the oldest has
			// waited WakeGateWait (a Lane of many Series would otherwise
			// add WakeGateWait to every Series' Rest, each time round).
			wait = min(wait, m.gateFullPace(ctx, l, now))
			// The wake gate holds reads, not the listing: wake for it
			// when it falls due (a Site without one waits as before).
			wait = min(wait, gatePace(m.listingWait(l, now)))
		}
		return res, wait
	}
	if dueErr != nil {
		return m.storeError(ctx, l, &res, dueErr)
	}
	if state == StateIdle {
		return res, m.nextDuePace(ctx, l, now)
	}
	m.startPass(ctx, l, &res)
	eligible, err := m.cfg.Store.CountSeriesUpTo(ctx, s.Name, gapCountCap)
	if err != nil {
		return m.storeError(ctx, l, &res, err)
	}
	gap := m.gap(l, eligible, now)
	limit := passLimit(m.cfg.PassSpan, gap)
	batch, err := m.cfg.Store.DueBatch(ctx, s.Name, s.Rest, now, limit)
	if err != nil {
		return m.storeError(ctx, l, &res, err)
	}
	refused := 0
	if listRefused {
		refused = 1
	}
	return m.readAll(ctx, l, &res, batch, limit, gap, refused)
}

// readAll reads the batch (at most limit Series) in order, one fetch per
// effective gap; refused counts refusals the pass met before (a refused
// listing).
func (m *Manager) readAll(ctx context.Context, l *lane, res *store.Pass, batch []store.DueSeries, limit int, gap time.Duration, refused int) (store.Pass, time.Duration) {
	s := l.site
	for i := 0; i < len(batch); i++ {
		d := batch[i]
		// The gap is kept across passes, and shared with every other reader
		// of the Site in this process (a MangaDex list import): the fetch
		// slot is taken from the Site's Pacer. A wake between fetches ends
		// the pass so the next one re-reads what is due (a Forced Poll
		// first). A wake while the pass waits for its first slot reads what
		// is due again and keeps the slot: a Forced Poll made then is read
		// in it, within one gap, and wakes, however many, never cost the
		// pass its read.
		for {
			wait := l.pace.Take(m.clock.Now(), gap)
			if wait <= 0 {
				break
			}
			woken, err := sleepOrWake(ctx, m.clock, l.wake, wait)
			if err != nil {
				res.Skip = SkipStopped
				return *res, 0
			}
			if !woken {
				continue
			}
			if i > 0 {
				return *res, 0
			}
			again, err := m.cfg.Store.DueBatch(ctx, s.Name, s.Rest, m.clock.Now(), limit)
			if err != nil {
				return m.storeError(ctx, l, res, err)
			}
			if len(again) == 0 {
				return *res, 0
			}
			batch, d = again, again[0]
		}
		l.beat.progress(res.Checked)
		if err := l.stillOwned(ctx); err != nil {
			res.Skip = SkipLockLost
			l.log.Warn("Lane lock lost mid-pass", "error", err)
			return *res, 0
		}
		stamp := m.clock.Now()
		st, ok, err := m.cfg.Store.StampChecked(ctx, s.Name, d.SeriesID, stamp)
		if err != nil {
			return m.storeError(ctx, l, res, err)
		}
		if !ok {
			continue // deleted since the due read
		}
		r := m.read(ctx, l, d.SeriesID)
		if ctx.Err() != nil {
			res.Skip = SkipStopped
			return *res, 0
		}
		if m.cfg.ObserveRead != nil {
			m.cfg.ObserveRead(s.Name, r.Outcome, m.clock.Now().Sub(stamp))
		}
		res.Checked++
		l.beat.progress(res.Checked)
		m.apply(ctx, l, res, d, r)
		switch r.Outcome {
		case sites.Refused:
			if refused++; refused >= 2 {
				until := m.clock.Now().Add(RefuseBackoff)
				if err := m.cfg.Store.SetRefuseUntil(ctx, s.Name, until); err != nil {
					l.log.Error("cannot store the refusal backoff", "error", err)
				}
				l.log.Warn("two refusals in one pass; Lane backs off", "refuse_until", until)
				return *res, RefuseBackoff
			}
		case sites.Unreachable:
			// The read never reached the Site: no evidence about the
			// Series, which stays due (its Forced Poll pending again).
			if _, err := m.cfg.Store.RestoreChecked(ctx, s.Name, d.SeriesID, st); err != nil {
				l.log.Error("cannot put an unread Series back as due", "series_id", d.SeriesID, "error", err)
			}
			if errors.Is(r.Err, sites.ErrRouteBusy) {
				// The tab was busy, not lost: try again after one gap.
				l.log.Warn("read timed out waiting for the browser tab", "series_id", d.SeriesID)
				return *res, gap
			}
			if s.Browser {
				m.flag.lost(m.clock.Now())
			}
			l.log.Warn("browser sidecar unreachable; browser Lanes pause", "window", BrowserLostWindow, "error", r.Err)
			return *res, BrowserLostWindow
		}
	}
	return *res, m.nextDuePace(ctx, l, m.clock.Now())
}

// read runs the Site's adapter through its route, turning a panic into an
// errors outcome so one bad page cannot take the process down.
func (m *Manager) read(ctx context.Context, l *lane, id string) (r sites.Result) {
	route := m.cfg.Plain
	if l.site.Browser {
		route = m.cfg.Browser
	}
	rctx, cancel := context.WithTimeout(ctx, m.cfg.ReadTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			l.log.Error("adapter panicked", "series_id", id, "error", fmt.Sprint(p))
			r = sites.Result{Outcome: sites.Errors, Err: fmt.Errorf("lanes: adapter panic: %v", p)}
		}
	}()
	r = l.site.Adapter.Read(rctx, l.site, route, id)
	if r.Outcome == sites.OK && r.Facts.Latest == nil {
		r.Outcome = sites.NoChapter
	}
	if !r.Outcome.Valid() {
		r = sites.Result{Outcome: sites.Errors, Err: fmt.Errorf("lanes: adapter returned outcome %q", r.Outcome)}
	}
	return r
}

// nextDuePace waits until the next Series becomes due, at most the default
// Rest; after a store error, a short pace.
func (m *Manager) nextDuePace(ctx context.Context, l *lane, now time.Time) time.Duration {
	next, ok, err := m.cfg.Store.NextDueAt(ctx, l.site.Name, l.site.Rest, now)
	switch {
	case err != nil:
		l.log.Error("cannot read when the next Series is due", "error", err)
		return storeErrorPace
	case !ok:
		return sites.DefaultRest // no Series: no listing either; a new one wakes the Lane
	}
	return clampPace(min(next.Sub(now), m.listingWait(l, now)))
}

func (m *Manager) storeError(ctx context.Context, l *lane, res *store.Pass, err error) (store.Pass, time.Duration) {
	if ctx.Err() != nil {
		res.Skip = SkipStopped
		return *res, 0
	}
	res.Skip = SkipStoreError
	l.log.Error("store error; pass skipped", "error", err)
	return *res, storeErrorPace
}

// gateWait is how long a gate state holds the Lane: until its window ends
// (at most one Rest); a Site with no browser route waits one Rest.
func (m *Manager) gateWait(state string, in StateInput, lr store.Lane, due store.DueStats) time.Duration {
	switch state {
	case StatePaused:
		return gatePace(lr.PausedUntil.Sub(in.Now))
	case StateRefusing:
		return gatePace(lr.RefuseUntil.Sub(in.Now))
	case StateBrowserDown:
		return gatePace(in.BrowserDownUntil.Sub(in.Now))
	case StateAsleep:
		return gatePace(WakeGateWait - in.Now.Sub(*due.OldestDueSince))
	}
	return sites.DefaultRest
}

// gateFullPace is how long until the wake gate opens by count: until the
// WakeGateDue-th Series in Rest order falls due (the default Rest when the
// Site has fewer, or on a store error, which the next pass meets again).
func (m *Manager) gateFullPace(ctx context.Context, l *lane, now time.Time) time.Duration {
	at, ok, err := m.cfg.Store.RestedDueAt(ctx, l.site.Name, l.site.Rest, WakeGateDue)
	if err != nil {
		l.log.Error("cannot read when the wake gate fills", "error", err)
		return sites.DefaultRest
	}
	if !ok {
		return sites.DefaultRest
	}
	return gatePace(at.Sub(now))
}

// gap computes the effective gap and warns, at most hourly, while the floor
// holds it up.
func (m *Manager) gap(l *lane, eligible int, now time.Time) time.Duration {
	gap, floored := EffectiveGap(l.site, eligible)
	if floored && (l.floorLogged.IsZero() || now.Sub(l.floorLogged) >= floorLogEvery) {
		l.floorLogged = now
		l.log.Warn("EFFECTIVE GAP AT THE FLOOR: this Site has more Series than one hour can poll; the Lane will fall behind",
			"eligible_at_least", eligible, "floor", GapFloor)
	}
	return gap
}

// gatePace is the wait until a gate window ends: capped at the default
// Rest, and at least a second so a window ending now cannot spin.
func gatePace(d time.Duration) time.Duration {
	if d < time.Second {
		d = time.Second
	}
	return clampPace(d)
}
