package trackersync

import (
	"context"
	"errors"

	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
)

// Start runs the pull and push workers until Stop (or ctx ends). A second
// Start while running does nothing.
func (s *Service) Start(ctx context.Context) {
	s.loop.Start(ctx, func(ctx context.Context) { _ = s.Run(ctx) })
}

// Stop ends the workers and waits for them.
func (s *Service) Stop() { s.loop.Stop() }

// Run checks the stored tokens open (a changed TOKEN_KEY turns their
// trackers to reconnect, never an error at start), then runs a Pass every
// Tick (and at once on Wake) until ctx ends. Its errors are logged, never
// returned: a tracker's trouble never stops `serve`.
func (s *Service) Run(ctx context.Context) error {
	s.CheckTokens(ctx)
	for ctx.Err() == nil {
		if _, err := s.Pass(ctx); err != nil && ctx.Err() == nil {
			s.conf.Log.Warn("tracker pass failed", "service", s.name, "error", err)
		}
		waitUntil(ctx, s.conf.Tick, s.wake)
	}
	return nil
}

// Passed is what one Pass did.
type Passed struct {
	Pulled, Moved, Wrote int
}

// Pass is one look of the workers: the push outbox brought up to now,
// then the due pulls and the due pushes in turn, every pull due at that
// moment (at most one per Reader) and then one push (a Reader's turn,
// round robin), until neither is left. Every Reader shares the tracker's
// pace alike: a pull made due now (PullNow) is claimed before the next
// push, so it waits for at most the push in flight and the pulls due
// before it (one per Reader), never for another Reader's queue of pushes. The pushes' `now` is the pass's start; the
// pulls' is each claim's.
func (s *Service) Pass(ctx context.Context) (Passed, error) {
	var out Passed
	turns, err := s.pushTurns(ctx)
	if err != nil {
		return out, err
	}
	for {
		pulled := false
		for { // every pull due now, then one push
			ok, moved, err := s.pullStep(ctx)
			if err != nil {
				return out, err
			}
			if !ok {
				break
			}
			pulled = true
			out.Pulled++
			out.Moved += moved
		}
		pushed, wrote, err := turns.step(ctx)
		if err != nil {
			return out, err
		}
		if wrote {
			out.Wrote++
		}
		if !pulled && !pushed {
			return out, nil
		}
	}
}

// CheckTokens opens every stored token of the tracker and turns those
// that no longer open (TOKEN_KEY changed, or the row was damaged) to
// reconnect. It logs, never fails.
func (s *Service) CheckTokens(ctx context.Context) {
	toks, err := s.conf.Store.TrackerSealedTokens(ctx, s.name)
	if err != nil {
		s.conf.Log.Warn("tracker tokens not checked", "service", s.name, "error", err)
		return
	}
	title := titles[s.name]
	turned := 0
	for _, t := range toks {
		_, err := s.conf.Sealer.Open(t.Sealed, binding(t.ReaderID, s.name))
		if err == nil {
			continue
		}
		reason := "The stored " + title + " token is damaged; connect " + title + " again."
		if errors.Is(err, trackers.ErrSealKeyChanged) {
			reason = "The server's key changed, so the stored " + title + " token no longer opens; connect " + title + " again."
		}
		if err := s.conf.Store.SetTrackerState(ctx, t.ReaderID, s.name, store.TrackerReconnect, reason); err != nil {
			s.conf.Log.Warn("tracker token check", "service", s.name, "error", err)
			return
		}
		turned++
	}
	if turned > 0 {
		s.conf.Log.Warn("tracker tokens no longer open (TOKEN_KEY changed?); their trackers show reconnect", "service", s.name, "count", turned)
	}
}
