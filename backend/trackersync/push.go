package trackersync

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
)

// pushBatch is how many Readers one take serves, one push each.
const pushBatch = 20

// pushMaxWaits is how many windows a push waits at most for the Reader to
// pause: a binge of one Series makes one write, a Reader who never pauses
// still pushes every five minutes.
const pushMaxWaits = 5

// PushOnce brings the push outbox up to now and sends the pushes that
// are due (Progress rested a window, or five windows passed since the
// first look saw it), one per Reader in turn (round robin: a Reader with
// 200 waiting takes a turn like a Reader with one): each reads the remote
// entry and writes only above it (trackers.PushOne), so the reads of a
// binge make one write and the remote never goes down. It returns how
// many writes went out. A refused token turns its tracker to reconnect
// and drops the Reader's other pushes; an unreachable or rate-limiting
// tracker holds the Reader's pushes back five minutes. Tests and the
// benchmark call it directly; the worker's Pass takes the same pushes in
// turn with the pulls.
func (s *Service) PushOnce(ctx context.Context) (int, error) {
	turns, err := s.pushTurns(ctx)
	if err != nil {
		return 0, err
	}
	wrote := 0
	for {
		ok, w, err := turns.step(ctx)
		if err != nil || !ok {
			return wrote, err
		}
		if w {
			wrote++
		}
	}
}

// turns is one pass's pushes: the outbox's due rows, taken a batch of
// Readers at a time in round robin from where the last take stopped.
type turns struct {
	s     *Service
	now   time.Time
	queue []store.TrackerPush
	done  bool
}

// pushTurns brings the outbox up to now and starts a pass's pushes.
func (s *Service) pushTurns(ctx context.Context) (*turns, error) {
	now := s.conf.Now()
	if _, err := s.conf.Store.RefreshTrackerPending(ctx, s.name, s.kind, now); err != nil {
		return nil, fmt.Errorf("trackersync: push: %w", err)
	}
	return &turns{s: s, now: now}, nil
}

// step sends the next Reader's push; ok is false when none is due.
func (t *turns) step(ctx context.Context) (ok, wrote bool, err error) {
	s := t.s
	if len(t.queue) == 0 && !t.done {
		s.turn.Lock()
		after := s.turn.after
		s.turn.Unlock()
		t.queue, err = s.conf.Store.TakeTrackerPushes(ctx, s.name, s.kind, t.now, s.conf.PushWindow,
			pushMaxWaits*s.conf.PushWindow, after, pushBatch)
		if err != nil {
			return false, false, fmt.Errorf("trackersync: push: %w", err)
		}
		t.done = len(t.queue) == 0
	}
	if len(t.queue) == 0 {
		return false, false, nil
	}
	p := t.queue[0]
	t.queue = t.queue[1:]
	s.turn.Lock()
	s.turn.after = p.ReaderID
	s.turn.Unlock()
	wrote, _, err = s.pushOne(ctx, p)
	return err == nil, wrote, err
}

// pushOne sends one push. stop says the Reader's other pushes of this
// batch are not to be sent (token refused, tracker backing off). Only a
// store error or the end of ctx is returned.
func (s *Service) pushOne(ctx context.Context, p store.TrackerPush) (wrote, stop bool, err error) {
	log := s.conf.Log.With("reader_id", p.ReaderID, "service", s.name, "media_id", p.MediaID)
	title := titles[s.name]
	token, err := s.conf.Sealer.Open(p.Sealed, binding(p.ReaderID, s.name))
	if err != nil {
		log.Warn("tracker token does not open; the tracker needs a new one", "error", err)
		return false, true, s.reconnect(ctx, p.ReaderID, fmt.Sprintf("The stored %s token no longer opens (the server's key changed); connect %s again.", title, title))
	}
	res, err := trackers.PushOneAs(ctx, s.svc, token, p.MediaID, p.Progress, p.Named, trackers.StatusOf(p.State))
	now := s.conf.Now()
	switch {
	case err == nil:
		remote := res.Before.Progress
		if res.Wrote {
			remote = res.After.Progress
		}
		if !res.Before.OnList && !res.Wrote {
			remote = 0
		}
		if err := s.conf.Store.RecordTrackerPush(ctx, p.ReaderID, s.name, p.MediaID, remote, res.Wrote, now); err != nil {
			return false, false, fmt.Errorf("trackersync: push: %w", err)
		}
		if res.Wrote {
			log.Debug("tracker pushed", "from", res.Before.Progress, "to", res.After.Progress)
		}
		return res.Wrote, false, nil
	case ctx.Err() != nil:
		return false, true, ctx.Err()
	case errors.Is(err, trackers.ErrTokenRefused):
		log.Warn("tracker refused the token; pushes stop until a new one", "error", err)
		return false, true, s.reconnect(ctx, p.ReaderID, fmt.Sprintf("%s refused the token (expired or revoked); connect %s again.", title, title))
	case errors.Is(err, trackers.ErrNoSuchMedia):
		// Remembered at our own count: no push is tried again until the
		// Reader reads further.
		n, _ := trackers.Whole(p.Progress)
		log.Info("tracker knows no such media; not pushed", "error", err)
		if err := s.conf.Store.RecordTrackerPush(ctx, p.ReaderID, s.name, p.MediaID, n, false, now); err != nil {
			return false, false, fmt.Errorf("trackersync: push: %w", err)
		}
		return false, false, nil
	default:
		log.Warn("tracker push failed; the Reader's pushes wait", "error", err, "retry_in", pushBackOff)
		if err := s.conf.Store.BackOffTrackerPush(ctx, p.ReaderID, s.name, now.Add(pushBackOff)); err != nil {
			return false, true, fmt.Errorf("trackersync: push: %w", err)
		}
		return false, true, nil
	}
}

func (s *Service) reconnect(ctx context.Context, readerID int64, reason string) error {
	if err := s.conf.Store.SetTrackerState(ctx, readerID, s.name, store.TrackerReconnect, reason); err != nil {
		return fmt.Errorf("trackersync: %w", err)
	}
	return nil
}
