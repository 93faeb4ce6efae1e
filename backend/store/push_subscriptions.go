package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// PushSubscription is one browser's Web Push subscription.
type PushSubscription struct {
	ReaderID int64
	Endpoint string
	P256dh   string
	Auth     string
}

// PushEndpoints lists a Reader's push subscription endpoints, oldest first.
func (s *Store) PushEndpoints(ctx context.Context, readerID int64) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT endpoint FROM push_subscriptions WHERE reader_id = $1 ORDER BY id`, readerID)
	if err != nil {
		return nil, fmt.Errorf("store: push endpoints: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("store: push endpoints: %w", err)
	}
	return out, nil
}

// ErrPushEndpointTaken refuses a subscription whose endpoint another
// Reader holds: a subscription is its Reader's own, and posting someone
// else's endpoint never moves it (issue 33 PS1).
var ErrPushEndpointTaken = errors.New("store: push endpoint held by another Reader")

// ErrPushLimit refuses a new subscription of a Reader who holds max.
var ErrPushLimit = errors.New("store: push subscription limit reached")

// SavePushSubscription stores a subscription for the Reader, or gives an
// endpoint the Reader already holds its new keys. An endpoint another
// Reader holds is ErrPushEndpointTaken and their row is left as it was; a
// new endpoint of a Reader who holds max already is ErrPushLimit. The
// Reader's row is locked while it counts, so concurrent posts cannot pass
// max together.
func (s *Store) SavePushSubscription(ctx context.Context, p PushSubscription, max int) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM readers WHERE id = $1 FOR UPDATE`, p.ReaderID); err != nil {
			return err
		}
		var holder int64
		err := tx.QueryRow(ctx, `SELECT reader_id FROM push_subscriptions WHERE endpoint = $1`, p.Endpoint).Scan(&holder)
		switch {
		case err == nil && holder != p.ReaderID:
			return ErrPushEndpointTaken
		case err == nil:
			_, err = tx.Exec(ctx, `UPDATE push_subscriptions SET p256dh = $3, auth = $4 WHERE endpoint = $2 AND reader_id = $1`,
				p.ReaderID, p.Endpoint, p.P256dh, p.Auth)
			return err
		case !errors.Is(err, pgx.ErrNoRows):
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM push_subscriptions WHERE reader_id = $1`, p.ReaderID).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return ErrPushLimit
		}
		// Another Reader may insert the same endpoint meanwhile (their own
		// row lock does not hold this one back): then it is theirs.
		tag, err := tx.Exec(ctx, `INSERT INTO push_subscriptions (reader_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)
			ON CONFLICT (endpoint) DO NOTHING`, p.ReaderID, p.Endpoint, p.P256dh, p.Auth)
		if err == nil && tag.RowsAffected() == 0 {
			return ErrPushEndpointTaken
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store: save push subscription: %w", err)
	}
	return nil
}

// GetPushSubscription returns the Reader's subscription at endpoint, or
// ErrNotFound.
func (s *Store) GetPushSubscription(ctx context.Context, readerID int64, endpoint string) (PushSubscription, error) {
	p := PushSubscription{ReaderID: readerID, Endpoint: endpoint}
	err := s.pool.QueryRow(ctx, `SELECT p256dh, auth FROM push_subscriptions WHERE reader_id = $1 AND endpoint = $2`,
		readerID, endpoint).Scan(&p.P256dh, &p.Auth)
	if err != nil {
		return p, notFound("get push subscription", err)
	}
	return p, nil
}

// DeletePushSubscription removes the Reader's subscription at endpoint and
// reports whether one was there.
func (s *Store) DeletePushSubscription(ctx context.Context, readerID int64, endpoint string) (bool, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM push_subscriptions WHERE reader_id = $1 AND endpoint = $2`, readerID, endpoint)
	if err != nil {
		return false, fmt.Errorf("store: delete push subscription: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// CountPushSubscriptions counts the Reader's push subscriptions.
func (s *Store) CountPushSubscriptions(ctx context.Context, readerID int64) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM push_subscriptions WHERE reader_id = $1`, readerID).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count push subscriptions: %w", err)
	}
	return n, nil
}

// DeletePushEndpoint removes the subscription at endpoint whoever holds it:
// the push service said it is gone (404 or 410).
func (s *Store) DeletePushEndpoint(ctx context.Context, endpoint string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM push_subscriptions WHERE endpoint = $1`, endpoint); err != nil {
		return fmt.Errorf("store: delete push endpoint: %w", err)
	}
	return nil
}
