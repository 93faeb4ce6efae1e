package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/safetext"
)

// stoppedOf lists the outlets of the Readers $1 that a receiver refused
// for good.
const stoppedOf = `SELECT reader_id, outlet FROM notify_outlets
	WHERE reader_id = ANY($1) AND stopped_at IS NOT NULL ORDER BY reader_id, outlet`

// querier is what collectStopped reads through: the pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// collectStopped returns the stopped outlets of each of the Readers ids.
func collectStopped(ctx context.Context, q querier, ids []int64) (map[int64][]string, error) {
	rows, err := q.Query(ctx, stoppedOf, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]string{}
	for rows.Next() {
		var id int64
		var o string
		if err := rows.Scan(&id, &o); err != nil {
			return nil, err
		}
		out[id] = append(out[id], o)
	}
	return out, rows.Err()
}

// StopOutlet records that d's receiver refused it for good (a Reader's
// webhook or ntfy topic answered 401, 403, 404 or 410): d and the
// outlet's other pending deliveries are dropped (those another send holds
// under lease end by their own answer), and the outlet is stopped, failing
// with reason, until the Reader sets its URL again (PutNotify). When the
// outlet was not stopped before, tell (the notice of the stop to the
// Reader's other outlets) is written in the same transaction, so the
// Reader hears of it once. It reports whether this call stopped it.
// reason is shown to the Reader and must hold no secret.
func (s *Store) StopOutlet(ctx context.Context, d Delivery, now time.Time, reason string, tell []NewDelivery) (bool, error) {
	reason = safetext.Line(reason)
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return false, fmt.Errorf("store: stop outlet: %w", err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // after Commit it is a no-op
	tag, err := tx.Exec(ctx, `UPDATE notice_deliveries SET dropped_at = $4, lease_until = NULL, last_error = $5
		WHERE reader_id = $1 AND outlet = $2 AND sent_at IS NULL AND dropped_at IS NULL
			AND (id = $3 OR lease_until IS NULL OR lease_until <= $4)`,
		d.ReaderID, d.Outlet, d.ID, now, reason)
	if err != nil {
		return false, fmt.Errorf("store: stop outlet: %w", err)
	}
	// The row exists, then is locked: two refusals of one outlet at once
	// (two deliveries in flight) take turns, and only the first tells.
	if _, err := tx.Exec(ctx, `INSERT INTO notify_outlets (reader_id, outlet) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
		d.ReaderID, d.Outlet); err != nil {
		return false, fmt.Errorf("store: stop outlet: %w", err)
	}
	var was *time.Time
	if err := tx.QueryRow(ctx, `SELECT stopped_at FROM notify_outlets WHERE reader_id = $1 AND outlet = $2 FOR UPDATE`,
		d.ReaderID, d.Outlet).Scan(&was); err != nil {
		return false, fmt.Errorf("store: stop outlet: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE notify_outlets SET last_error = $3,
			failing_since = coalesce(failing_since, $4),
			dropped = dropped + $5,
			stopped_at = coalesce(stopped_at, $4)
		WHERE reader_id = $1 AND outlet = $2`,
		d.ReaderID, d.Outlet, reason, now, tag.RowsAffected()); err != nil {
		return false, fmt.Errorf("store: stop outlet: %w", err)
	}
	stopped := was == nil
	if stopped && len(tell) > 0 {
		b := &pgx.Batch{}
		queueDeliveries(b, d.ReaderID, tell, now)
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return false, fmt.Errorf("store: stop outlet: %w", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return false, fmt.Errorf("store: stop outlet: %w", err)
	}
	return stopped, nil
}
