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
		INSERT INTO poll_failures (site, series_id, outcome, failing_since)
		VALUES ($1, $2, $3, $4)
		ON CONFLICT (site, series_id) DO UPDATE SET outcome = EXCLUDED.outcome
		WHERE poll_failures.outcome <> EXCLUDED.outcome`, site, seriesID, outcome, now)
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
