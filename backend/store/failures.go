package store

import (
	"context"
	"fmt"
	"time"
)

// UpsertFailure records a failing read of one Series (ADR "the failure row is
// the state"): a new row starts failing_since at now; a changed word updates
// only the word; an unchanged word writes nothing at all. outcome must be one
// of not_found, no_chapter, unfetchable, errors.
func (s *Store) UpsertFailure(ctx context.Context, site, seriesID, outcome string, now time.Time) error {
	_, err := s.pool.Exec(ctx, `
		WITH f AS (
			INSERT INTO poll_failures (site, series_id, outcome, failing_since)
			VALUES ($1, $2, $3, $4)
			ON CONFLICT (site, series_id) DO UPDATE SET outcome = EXCLUDED.outcome
			WHERE poll_failures.outcome <> EXCLUDED.outcome
		), v AS (
			SELECT $3 = 'not_found' AND s.latest_seen_at IS NULL AND s.created_at <= $5 AND NOT EXISTS (
				SELECT 1 FROM bookmarks b
				LEFT JOIN progress p ON p.reader_id = b.reader_id AND p.site = b.site AND p.series_id = b.series_id
				WHERE b.site = s.site AND b.series_id = s.series_id
					AND (b.created_at > $5 OR p.updated_at > $5)) AS slow
			FROM series s WHERE s.site = $1 AND s.series_id = $2
		)
		UPDATE series s SET slow = v.slow FROM v
		WHERE s.site = $1 AND s.series_id = $2 AND s.slow <> v.slow`, site, seriesID, outcome, now, now.Add(-SlowUnopenedFor))
	if err != nil {
		return fmt.Errorf("store: upsert failure: %w", err)
	}
	return nil
}

// ClearFailure deletes the Series' failure row; a missing row is not an error.
func (s *Store) ClearFailure(ctx context.Context, site, seriesID string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM poll_failures WHERE site = $1 AND series_id = $2`, site, seriesID); err != nil {
		return fmt.Errorf("store: clear failure: %w", err)
	}
	return nil
}
