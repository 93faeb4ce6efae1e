package readernotice

import (
	"context"
	"encoding/json"
	"errors"
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

// deliver claims up to limit due deliveries and starts one send for each
// on a free worker. It does not wait for them: a send that hangs holds its
// worker until the guard's timeout and nothing else, so the next pass makes
// the next Digests and claims other Readers' deliveries past it. The claim
// bounds one Reader's deliveries under lease (Config.ReaderSends), so one
// Reader's hanging outlets cannot take every worker; the lease keeps a
// delivery in flight from being claimed again.
func (s *Service) deliver(ctx context.Context, limit int) (int, error) {
	ds, err := s.cfg.Store.ClaimDeliveries(ctx, s.cfg.Now(), lease, limit, s.cfg.ReaderSends)
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
	for _, d := range ds {
		select {
		case s.slots <- struct{}{}:
		case <-ctx.Done():
			return len(ds), nil // shutting down: the leases run out and another pass sends
		}
		s.sends.Add(1)
		go func(d store.Delivery) {
			defer func() { <-s.slots; s.sends.Done() }()
			if err := s.sendOne(ctx, d, targets[d.ReaderID]); err != nil && ctx.Err() == nil {
				s.cfg.Log.Warn("recording a notice send failed", "outlet", d.Outlet, "error", err)
				s.noteSendErr(err)
			}
		}(d)
	}
	return len(ds), nil
}

// noteSendErr keeps the first database error of a send for RunOnce.
func (s *Service) noteSendErr(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sendErr == nil {
		s.sendErr = err
	}
}

func (s *Service) takeSendErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.sendErr
	s.sendErr = nil
	return err
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
	r := readerOf(t.Reader, t.Settings, t.Push, t.Stopped)
	if !ok || !contains(targets(o, r), d.Target) {
		// The Reader turned the outlet off (or the Owner removed it, or its
		// receiver refused it for good) since the Digest was made: nothing
		// to send to.
		return s.cfg.Store.DropDelivery(ctx, d.ID, now, "the outlet was turned off")
	}
	var dg Digest
	if err := json.Unmarshal(d.Payload, &dg); err != nil {
		return s.cfg.Store.DropDelivery(ctx, d.ID, now, "the stored notice could not be read")
	}
	dg.ReadLink = s.readLink(d.ID)
	dg.WebhookID = d.WebhookID
	err := o.Send(ctx, r, d.Target, dg)
	now = s.cfg.Now()
	switch {
	case err == nil:
		s.metrics.sent(d.Outlet, now.Sub(d.FirstSeen))
		return s.cfg.Store.MarkDelivered(ctx, d, now)
	case errors.Is(err, ErrGone):
		s.metrics.result(d.Outlet, "gone")
		return s.cfg.Store.DropDelivery(ctx, d.ID, now, err.Error())
	case errors.Is(err, ErrRefused):
		s.metrics.result(d.Outlet, "refused")
		s.cfg.Log.Info("reader notices: outlet refused for good, stopped", "outlet", d.Outlet, "reader", d.ReaderID, "err", err)
		_, serr := s.cfg.Store.StopOutlet(ctx, d, now, err.Error(), stoppedNotice(r, d.Outlet, err.Error(), now, s.order))
		return serr
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
	s.cfg.Log.Info("notice send failed", "outlet", d.Outlet, "reader_id", d.ReaderID, "attempt", d.Attempts, "dropped", drop, "error", err)
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
	return readerOf(rd, st, push, nil), nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// stoppedNotice is the notice that outlet stopped, to the Reader's other
// outlets that are on and not stopped: a Digest with no chapters and the
// stop as its late part (state outlet_stopped, the reason as its title).
func stoppedNotice(r Reader, outlet, reason string, now time.Time, order []Outlet) []store.NewDelivery {
	d := Digest{Reader: Recipient{DiscordID: r.DiscordID, Name: r.Name}, Chapters: []Chapter{},
		Late: []Late{{Site: outlet, State: "outlet_stopped", Since: now.UTC(), Title: reason}}}
	body, _ := json.Marshal(d) // plain structs: cannot fail
	r.Stopped = append(append([]string(nil), r.Stopped...), outlet)
	var out []store.NewDelivery
	for _, o := range order {
		for _, target := range targets(o, r) {
			out = append(out, store.NewDelivery{Outlet: o.Name(), Target: target, Payload: body, FirstSeen: now})
		}
	}
	return out
}
