package readernotice

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"mangabookmark/backend/store"
)

// RetryFor is how long a failing delivery is retried before it is dropped
// (and counted on the Reader's settings page).
const RetryFor = 24 * time.Hour

// backoff is the wait after the n-th failed attempt: 30 s doubling, at most
// an hour.
func backoff(n int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < n && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}

// deliver claims one batch of due deliveries and sends them concurrently.
func (s *Service) deliver(ctx context.Context) (int, error) {
	ds, err := s.cfg.Store.ClaimDeliveries(ctx, s.cfg.Now(), lease, deliveryBatch)
	if err != nil || len(ds) == 0 {
		return 0, err
	}
	ids := make([]int64, 0, len(ds))
	for _, d := range ds {
		ids = append(ids, d.ReaderID)
	}
	targets, err := s.cfg.Store.NotifyTargets(ctx, ids)
	if err != nil {
		return 0, err
	}
	sem := make(chan struct{}, s.cfg.Workers)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for _, d := range ds {
		sem <- struct{}{}
		wg.Add(1)
		go func(d store.Delivery) {
			defer func() { <-sem; wg.Done() }()
			if err := s.sendOne(ctx, d, targets[d.ReaderID]); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}(d)
	}
	wg.Wait()
	return len(ds), firstErr
}

// sendOne sends one delivery with the Reader's settings as they are now
// and records the outcome. Only a database error is returned: an outlet's
// failure is the delivery's state.
func (s *Service) sendOne(ctx context.Context, d store.Delivery, t *store.NotifyTarget) error {
	now := s.cfg.Now()
	if t == nil {
		return s.cfg.Store.DropDelivery(ctx, d.ID, now, "the Reader no longer exists")
	}
	o, ok := s.outlets[d.Outlet]
	r := recipientOf(t.Reader, t.Settings, t.Push)
	if !ok || !contains(o.Targets(r), d.Target) {
		// The Reader turned the outlet off (or the Owner removed it) since
		// the Digest was made: nothing to send to.
		return s.cfg.Store.DropDelivery(ctx, d.ID, now, "the outlet was turned off")
	}
	var dg Digest
	if err := json.Unmarshal(d.Payload, &dg); err != nil {
		return s.cfg.Store.DropDelivery(ctx, d.ID, now, "the stored notice could not be read")
	}
	dg.ReadLink = s.readLink(d.ID)
	dg.DeliveryID = d.ID
	err := o.Send(ctx, r, d.Target, dg)
	now = s.cfg.Now()
	switch {
	case err == nil:
		s.metrics.sent(d.Outlet, now.Sub(d.FirstSeen))
		return s.cfg.Store.MarkDelivered(ctx, d, now)
	case errors.Is(err, ErrGone):
		s.metrics.result(d.Outlet, "gone")
		return s.cfg.Store.DropDelivery(ctx, d.ID, now, err.Error())
	}
	if ctx.Err() != nil {
		return nil // shutting down: the lease runs out and another pass resends
	}
	drop := !now.Before(d.CreatedAt.Add(RetryFor))
	if drop {
		s.metrics.result(d.Outlet, "dropped")
	} else {
		s.metrics.result(d.Outlet, "failed")
	}
	s.cfg.Log.Info("reader notices: send failed", "outlet", d.Outlet, "reader", d.ReaderID, "attempt", d.Attempts, "dropped", drop, "err", err)
	return s.cfg.Store.MarkFailed(ctx, d, now, now.Add(backoff(d.Attempts)), drop, err.Error())
}

func (s *Service) reader(ctx context.Context, id int64) (Reader, error) {
	rd, err := s.cfg.Store.GetReader(ctx, id)
	if err != nil {
		return Reader{}, err
	}
	st, err := s.cfg.Store.GetNotify(ctx, id)
	if err != nil {
		return Reader{}, err
	}
	push, err := s.cfg.Store.PushEndpoints(ctx, id)
	if err != nil {
		return Reader{}, err
	}
	return recipientOf(rd, st, push), nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
