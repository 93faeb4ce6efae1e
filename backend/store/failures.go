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

// Failing is one row of the failing worklist: a failure row with the
// Series it belongs to.
type Failing struct {
	Site            string
	SeriesID        string
	Title           string
	URL             string
	Outcome         string
	FailingSince    time.Time
	LatestCheckedAt *time.Time
}

// FailingFilter narrows ListFailing; empty fields match everything.
type FailingFilter struct {
	Site    string
	Outcome string
}

// ListFailing returns the failing worklist, oldest failure first.
func (s *Store) ListFailing(ctx context.Context, f FailingFilter) ([]Failing, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT f.site, f.series_id, s.title, s.url, f.outcome, f.failing_since, s.latest_checked_at
		FROM poll_failures f JOIN series s USING (site, series_id)
		WHERE ($1 = '' OR f.site = $1) AND ($2 = '' OR f.outcome = $2)
		ORDER BY f.failing_since, f.site, f.series_id`, f.Site, f.Outcome)
	if err != nil {
		return nil, fmt.Errorf("store: list failing: %w", err)
	}
	defer rows.Close()
	var out []Failing
	for rows.Next() {
		var x Failing
		if err := rows.Scan(&x.Site, &x.SeriesID, &x.Title, &x.URL, &x.Outcome, &x.FailingSince, &x.LatestCheckedAt); err != nil {
			return nil, fmt.Errorf("store: list failing: %w", err)
		}
		out = append(out, x)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list failing: %w", err)
	}
	return out, nil
}
