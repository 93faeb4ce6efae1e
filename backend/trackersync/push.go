package trackersync

import (
	"context"
	"errors"
	"fmt"

	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
)

// pushBatch is how many outbox rows one take holds.
const pushBatch = 20

// pushMaxWaits is how many windows a push waits at most for the Reader to
// pause: a binge of one Series makes one write, a Reader who never pauses
// still pushes every five minutes.
const pushMaxWaits = 5

// PushOnce brings the push outbox up to now and sends the pushes that
// are due (Progress rested a window, or five windows passed since the
// first look saw it): each reads the remote entry and writes only above
// it (trackers.PushOne), so the reads of a binge make one write and the
// remote never goes down. It returns how many writes went out. A refused
// token turns its tracker to reconnect and drops the Reader's other
// pushes; an unreachable or rate-limiting tracker holds the Reader's
// pushes back five minutes. Tests and the benchmark call it directly.
func (s *Service) PushOnce(ctx context.Context) (int, error) {
	now := s.conf.Now()
	if _, err := s.conf.Store.RefreshTrackerPending(ctx, s.name, s.kind, now); err != nil {
		return 0, fmt.Errorf("trackersync: push: %w", err)
	}
	wrote := 0
	for {
		batch, err := s.conf.Store.TakeTrackerPushes(ctx, s.name, s.kind, now, s.conf.PushWindow, pushMaxWaits*s.conf.PushWindow, pushBatch)
		if err != nil {
			return wrote, fmt.Errorf("trackersync: push: %w", err)
		}
		stopped := map[int64]bool{}
		for _, p := range batch {
			if stopped[p.ReaderID] {
				continue
			}
			ok, stop, err := s.pushOne(ctx, p)
			if err != nil {
				return wrote, err
			}
			if ok {
				wrote++
			}
			stopped[p.ReaderID] = stop
		}
		if len(batch) < pushBatch {
			return wrote, nil
		}
	}
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
	res, err := trackers.PushOne(ctx, s.svc, token, p.MediaID, p.Progress)
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
