package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/safetext"
)

// Delivery is one notice_deliveries row claimed for sending, with the
// Reader it goes to.
type Delivery struct {
	ID        int64
	WebhookID string // 128 random bits, the same on every retry
	ReaderID  int64
	Outlet    string
	Target    string
	Payload   []byte
	FirstSeen time.Time
	CreatedAt time.Time
	Attempts  int // including the one this claim is for
}

// ClaimDeliveries leases up to limit due deliveries until now+lease and
// counts the attempt. A row under another sender's lease is skipped, and
// SKIP LOCKED keeps two senders' claims apart; a sender that dies after
// sending and before marking leaves a lease that runs out, so that
// delivery is sent once more, never more often per crash.
//
// perReader bounds the deliveries of one Reader under lease at once, the
// ones leased before this claim included: a Reader whose outlets hang holds
// at most perReader sends and the rest of the Reader's queue waits, while
// every other Reader's deliveries are claimed past it. Two senders claiming
// at the same moment may each take a Reader up to the bound.
func (s *Store) ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit, perReader int) ([]Delivery, error) {
	rows, err := s.pool.Query(ctx, `
		WITH inflight AS (
			SELECT reader_id, count(*) AS n FROM notice_deliveries
			WHERE sent_at IS NULL AND dropped_at IS NULL AND lease_until > $1
			GROUP BY reader_id),
		due AS (
			SELECT d.id, d.next_at, coalesce(i.n, 0)
				+ row_number() OVER (PARTITION BY d.reader_id ORDER BY d.next_at, d.id) AS k
			FROM notice_deliveries d LEFT JOIN inflight i ON i.reader_id = d.reader_id
			WHERE d.sent_at IS NULL AND d.dropped_at IS NULL AND d.next_at <= $1
				AND (d.lease_until IS NULL OR d.lease_until <= $1))
		UPDATE notice_deliveries d SET lease_until = $2, attempts = d.attempts + 1
		FROM (SELECT id FROM notice_deliveries
			WHERE id IN (SELECT id FROM due WHERE k <= $4 ORDER BY next_at, id LIMIT $3)
				AND sent_at IS NULL AND dropped_at IS NULL AND next_at <= $1
				AND (lease_until IS NULL OR lease_until <= $1)
			ORDER BY next_at, id FOR UPDATE SKIP LOCKED) c
		WHERE d.id = c.id
		RETURNING d.id, d.webhook_id, d.reader_id, d.outlet, d.target, d.payload, d.first_seen, d.created_at, d.attempts`,
		now, now.Add(lease), limit, perReader)
	if err != nil {
		return nil, fmt.Errorf("store: claim deliveries: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Delivery, error) {
		var d Delivery
		err := r.Scan(&d.ID, &d.WebhookID, &d.ReaderID, &d.Outlet, &d.Target, &d.Payload, &d.FirstSeen, &d.CreatedAt, &d.Attempts)
		return d, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: claim deliveries: %w", err)
	}
	return out, nil
}

// MarkDelivered records a sent delivery and its outlet's good health.
func (s *Store) MarkDelivered(ctx context.Context, d Delivery, now time.Time) error {
	_, err := s.pool.Exec(ctx, `
		WITH upd AS (UPDATE notice_deliveries SET sent_at = $2, lease_until = NULL, last_error = '' WHERE id = $1)
		INSERT INTO notify_outlets (reader_id, outlet, last_ok_at) VALUES ($3, $4, $2)
		ON CONFLICT (reader_id, outlet) DO UPDATE SET last_ok_at = $2, failing_since = NULL, last_error = ''`,
		d.ID, now, d.ReaderID, d.Outlet)
	if err != nil {
		return fmt.Errorf("store: mark delivered: %w", err)
	}
	return nil
}

// MarkFailed records a failed attempt: the delivery is due again at next,
// or dropped (drop true) and counted on the outlet's health row. reason is
// shown to the Reader and must hold no secret.
func (s *Store) MarkFailed(ctx context.Context, d Delivery, now, next time.Time, drop bool, reason string) error {
	reason = safetext.Line(reason)
	var dropped any
	if drop {
		dropped = now
	}
	_, err := s.pool.Exec(ctx, `
		WITH upd AS (UPDATE notice_deliveries SET next_at = $2, lease_until = NULL, last_error = $3, dropped_at = $4 WHERE id = $1)
		INSERT INTO notify_outlets (reader_id, outlet, last_error, failing_since, dropped)
		VALUES ($5, $6, $3, $7, CASE WHEN $4::timestamptz IS NULL THEN 0 ELSE 1 END)
		ON CONFLICT (reader_id, outlet) DO UPDATE SET last_error = $3,
			failing_since = coalesce(notify_outlets.failing_since, $7),
			dropped = notify_outlets.dropped + CASE WHEN $4::timestamptz IS NULL THEN 0 ELSE 1 END`,
		d.ID, next, reason, dropped, d.ReaderID, d.Outlet, now)
	if err != nil {
		return fmt.Errorf("store: mark failed: %w", err)
	}
	return nil
}

// DropDelivery ends a delivery whose target is gone (a push subscription
// the push service answered 404/410 for), without counting a failure.
func (s *Store) DropDelivery(ctx context.Context, id int64, now time.Time, reason string) error {
	_, err := s.pool.Exec(ctx, `UPDATE notice_deliveries SET dropped_at = $2, lease_until = NULL, last_error = $3 WHERE id = $1`,
		id, now, safetext.Line(reason))
	if err != nil {
		return fmt.Errorf("store: drop delivery: %w", err)
	}
	return nil
}

// NextDeliveryAt returns when the earliest pending delivery is due (ok
// false when none is pending).
func (s *Store) NextDeliveryAt(ctx context.Context) (time.Time, bool, error) {
	var at *time.Time
	err := s.pool.QueryRow(ctx, `SELECT min(greatest(next_at, coalesce(lease_until, next_at)))
		FROM notice_deliveries WHERE sent_at IS NULL AND dropped_at IS NULL`).Scan(&at)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: next delivery: %w", err)
	}
	if at == nil {
		return time.Time{}, false, nil
	}
	return *at, true, nil
}

// PruneDeliveries deletes sent or dropped deliveries settled before cutoff.
func (s *Store) PruneDeliveries(ctx context.Context, cutoff time.Time) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM notice_deliveries
		WHERE coalesce(sent_at, dropped_at) < $1`, cutoff)
	if err != nil {
		return 0, fmt.Errorf("store: prune deliveries: %w", err)
	}
	return tag.RowsAffected(), nil
}

// FailingOutlets counts, per outlet kind, the Readers whose outlet is
// failing now.
func (s *Store) FailingOutlets(ctx context.Context) (map[string]int, error) {
	rows, err := s.pool.Query(ctx, `SELECT outlet, count(*) FROM notify_outlets
		WHERE failing_since IS NOT NULL GROUP BY outlet ORDER BY outlet`)
	if err != nil {
		return nil, fmt.Errorf("store: failing outlets: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var o string
		var n int
		if err := rows.Scan(&o, &n); err != nil {
			return nil, fmt.Errorf("store: failing outlets: %w", err)
		}
		out[o] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: failing outlets: %w", err)
	}
	return out, nil
}

// GetDeliveryPayload returns the Reader and the Digest payload of one
// delivery, or ErrNotFound (pruned, or the Reader deleted).
func (s *Store) GetDeliveryPayload(ctx context.Context, id int64) (int64, []byte, error) {
	var reader int64
	var payload []byte
	err := s.pool.QueryRow(ctx, `SELECT reader_id, payload FROM notice_deliveries WHERE id = $1`, id).Scan(&reader, &payload)
	if err != nil {
		return 0, nil, notFound("get delivery", err)
	}
	return reader, payload, nil
}
