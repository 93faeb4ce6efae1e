package trackersync

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
)

// PullOnce pulls every Reader whose pull is due, one lease at a time
// (another process pulling meanwhile takes the others), and returns how
// many Readers it pulled and how many Progress rows moved. A failed pull
// marks its tracker failing and backs off; it is not an error of the
// pass. Tests and the benchmark call it directly; the worker's Pass takes
// the same pulls in turn with the pushes.
func (s *Service) PullOnce(ctx context.Context) (pulled, moved int, err error) {
	for {
		ok, n, err := s.pullStep(ctx)
		if err != nil || !ok {
			return pulled, moved, err
		}
		pulled++
		moved += n
	}
}

// pullStep claims the one due pull that waited longest and pulls it; ok is
// false when none is due.
func (s *Service) pullStep(ctx context.Context) (ok bool, moved int, err error) {
	claims, err := s.conf.Store.ClaimTrackerPulls(ctx, s.name, s.owner, s.conf.Now(), s.conf.Lease, 1)
	if err != nil {
		return false, 0, fmt.Errorf("trackersync: pull: %w", err)
	}
	if len(claims) == 0 {
		return false, 0, nil
	}
	moved, err = s.pullOne(ctx, claims[0])
	return err == nil, moved, err
}

// pullOne pulls one leased Reader. Only a store error or the end of ctx
// is returned.
func (s *Service) pullOne(ctx context.Context, c store.TrackerClaim) (int, error) {
	log := s.conf.Log.With("reader_id", c.ReaderID, "service", s.name)
	// Only the ids that count for this Reader (a Site's, the crosswalk's,
	// their own), and no bookmark they make ambiguous (store.TrackerSkip).
	marks, _, err := s.conf.Store.TrackerMarks(ctx, c.ReaderID, s.kind)
	if err != nil {
		return 0, fmt.Errorf("trackersync: pull: %w", err)
	}
	bms := make([]trackers.Bookmark, len(marks))
	for i, m := range marks {
		bms[i] = trackers.Bookmark{Site: m.Site, SeriesID: m.SeriesID, MediaID: m.MediaID, Progress: m.Progress}
	}
	coll, err := s.svc.List(ctx, c.Username)
	if err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err() // shutting down: the lease runs out, the pull is due again
		}
		return 0, s.failPull(ctx, c, err)
	}
	plan := trackers.PlanPull(coll.Entries, bms)
	now := s.conf.Now()
	res := store.TrackerPulled{ReaderID: c.ReaderID, Service: s.name, Owner: s.owner, Now: now, Next: now.Add(s.conf.PullEvery)}
	for _, m := range plan.Moves {
		res.Moves = append(res.Moves, store.TrackerMove{Site: m.Site, SeriesID: m.SeriesID, To: m.To})
	}
	for _, st := range plan.States {
		res.States = append(res.States, store.TrackerState{Site: st.Site, SeriesID: st.SeriesID, State: st.State})
	}
	for _, e := range plan.Unmatched {
		res.Unmatched = append(res.Unmatched, store.TrackerEntry{MediaID: e.MediaID, Progress: e.Progress, Status: string(e.Status)})
	}
	// Every linked media on the list is remembered at its count, moved or
	// not, so the push knows what the tracker already holds.
	linked := map[string]bool{}
	for _, b := range bms {
		linked[b.MediaID] = true
	}
	remote := map[string]int{}
	for _, e := range coll.Entries {
		if n, seen := remote[e.MediaID]; linked[e.MediaID] && (!seen || e.Progress > n) {
			remote[e.MediaID] = e.Progress
		}
	}
	for id, n := range remote {
		res.Remote = append(res.Remote, store.TrackerRemote{MediaID: id, Progress: n})
	}
	moved, err := s.conf.Store.ApplyTrackerPull(ctx, res)
	if errors.Is(err, store.ErrTrackerLeaseLost) {
		log.Warn("tracker pull's lease passed to another process; its result is dropped")
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("trackersync: pull: %w", err)
	}
	if len(coll.Refused) > 0 {
		log.Info("tracker list entries refused", "refused", len(coll.Refused), "first_reason", coll.Refused[0].Reason)
	}
	log.Debug("tracker pulled", "moved", moved, "unmatched", len(res.Unmatched))
	return moved, nil
}

// failPull records why a pull failed and when the next may run: the
// interval doubled per failure in a row, at most six hours.
func (s *Service) failPull(ctx context.Context, c store.TrackerClaim, err error) error {
	title := titles[s.name]
	var reason string
	switch {
	case errors.Is(err, trackers.ErrNoSuchUser):
		reason = fmt.Sprintf("%s knows no user named %q, or their list is private.", title, c.Username)
	case errors.Is(err, trackers.ErrRateLimited):
		reason = fmt.Sprintf("%s asked us to slow down; the next pull waits.", title)
	case errors.Is(err, trackers.ErrAnswerTooLarge):
		reason = fmt.Sprintf("%s's list was larger than we read (over %d entries or its size bound).", title, trackers.MaxEntries)
	case errors.Is(err, trackers.ErrBadAnswer):
		reason = fmt.Sprintf("%s's answer was not the shape it documents; the next pull tries again.", title)
	default:
		reason = fmt.Sprintf("%s could not be reached; the next pull tries again.", title)
	}
	wait := s.conf.PullEvery << min(c.Failures, 10)
	wait = min(wait, maxBackOff)
	s.conf.Log.Warn("tracker pull failed", "reader_id", c.ReaderID, "service", s.name, "error", err, "retry_in", wait)
	if ferr := s.conf.Store.FailTrackerPull(ctx, c.ReaderID, s.name, s.owner, reason, s.conf.Now().Add(wait)); ferr != nil {
		return fmt.Errorf("trackersync: pull: %w", ferr)
	}
	return nil
}

// waitUntil is a sleep ending early with ctx.
func waitUntil(ctx context.Context, d time.Duration, wake <-chan struct{}) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	case <-wake:
	}
}
