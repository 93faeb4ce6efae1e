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
// trackers to reconnect, never an error at start), then runs the pull and
// the push every Tick (and at once on Wake) until ctx ends. Their errors
// are logged, never returned: a tracker's trouble never stops `serve`.
func (s *Service) Run(ctx context.Context) error {
	s.CheckTokens(ctx)
	for ctx.Err() == nil {
		if _, _, err := s.PullOnce(ctx); err != nil && ctx.Err() == nil {
			s.conf.Log.Warn("tracker pull pass failed", "service", s.name, "error", err)
		}
		if _, err := s.PushOnce(ctx); err != nil && ctx.Err() == nil {
			s.conf.Log.Warn("tracker push pass failed", "service", s.name, "error", err)
		}
		waitUntil(ctx, s.conf.Tick, s.wake)
	}
	return nil
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
