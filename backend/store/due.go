package store

import (
	"context"
	"fmt"
	"time"

	"mangabookmark/backend/safetext"
)

// This file holds the Lanes' reads and writes on the series table: what is
// due, the stamp before each fetch, the record of a good read, and the
// Owner's Forced Poll. A Series is due when it was never checked, when it
// was last checked at or before now - Rest, or when a Forced Poll is pending
// (force_poll_at later than latest_checked_at). That cutoff is the only rate
// authority; nothing here joins poll_failures.

const dueWhere = `site = $1 AND (latest_checked_at IS NULL OR latest_checked_at <= $2 OR force_poll_at > latest_checked_at)`

// DueStats summarises what is due on one Site at one moment.
type DueStats struct {
	Due    int // Series due now
	Forced int // of which a Forced Poll is pending
	// OldestDueSince is when the longest-waiting due Series became due:
	// created_at for a never-checked Series, the Forced Poll time for a
	// forced one, latest_checked_at + Rest otherwise. Nil when nothing is due.
	OldestDueSince *time.Time
}

// BehindBy is how long past its due time the oldest due Series has waited
// at now; zero when nothing is due.
func (d DueStats) BehindBy(now time.Time) time.Duration {
	if d.OldestDueSince == nil || !now.After(*d.OldestDueSince) {
		return 0
	}
	return now.Sub(*d.OldestDueSince)
}

// DueSummary counts the Site's due Series and finds the oldest due time.
func (s *Store) DueSummary(ctx context.Context, site string, rest time.Duration, now time.Time) (DueStats, error) {
	var d DueStats
	err := s.pool.QueryRow(ctx, `
		SELECT count(*),
			count(*) FILTER (WHERE force_poll_at IS NOT NULL AND (latest_checked_at IS NULL OR force_poll_at > latest_checked_at)),
			min(CASE WHEN latest_checked_at IS NULL THEN created_at
				WHEN force_poll_at > latest_checked_at THEN least(force_poll_at, latest_checked_at + $3 * interval '1 microsecond')
				ELSE latest_checked_at + $3 * interval '1 microsecond' END)
		FROM series WHERE `+dueWhere, site, now.Add(-rest), rest.Microseconds()).Scan(&d.Due, &d.Forced, &d.OldestDueSince)
	if err != nil {
		return DueStats{}, fmt.Errorf("store: due summary: %w", err)
	}
	return d, nil
}

// DueSeries is one Series a pass will read.
type DueSeries struct {
	SeriesID string
}

// DueBatch returns up to limit due Series in the order a pass reads them:
// pending Forced Polls first, then never-checked Series, then the longest
// resting. Each arm walks an index, so the cost follows limit, not the
// size of the table.
func (s *Store) DueBatch(ctx context.Context, site string, rest time.Duration, now time.Time, limit int) ([]DueSeries, error) {
	if limit <= 0 {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, `
		SELECT series_id FROM (
			(SELECT 0 AS arm, force_poll_at AS k, series_id
				FROM series WHERE site = $1 AND force_poll_at IS NOT NULL
					AND (latest_checked_at IS NULL OR force_poll_at > latest_checked_at)
				ORDER BY force_poll_at, series_id LIMIT $3)
			UNION ALL
			(SELECT 1, created_at, series_id
				FROM series WHERE site = $1 AND latest_checked_at IS NULL AND force_poll_at IS NULL
				ORDER BY created_at, series_id LIMIT $3)
			UNION ALL
			(SELECT 2, latest_checked_at, series_id
				FROM series WHERE site = $1 AND latest_checked_at <= $2
					AND (force_poll_at IS NULL OR force_poll_at <= latest_checked_at)
				ORDER BY latest_checked_at NULLS FIRST LIMIT $3)
		) due ORDER BY arm, k, series_id LIMIT $3`, site, now.Add(-rest), limit)
	if err != nil {
		return nil, fmt.Errorf("store: due batch: %w", err)
	}
	defer rows.Close()
	out := make([]DueSeries, 0, min(limit, 1024))
	for rows.Next() {
		var d DueSeries
		if err := rows.Scan(&d.SeriesID); err != nil {
			return nil, fmt.Errorf("store: due batch: %w", err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: due batch: %w", err)
	}
	return out, nil
}

// NextDueAt returns when the Site's next Series becomes due (now when one
// already is); ok is false when the Site has no Series at all.
func (s *Store) NextDueAt(ctx context.Context, site string, rest time.Duration, now time.Time) (next time.Time, ok bool, err error) {
	var pending bool
	var oldest *time.Time
	err = s.pool.QueryRow(ctx, `
		SELECT EXISTS (SELECT 1 FROM series WHERE site = $1 AND latest_checked_at IS NULL)
			OR EXISTS (SELECT 1 FROM series WHERE site = $1 AND force_poll_at IS NOT NULL AND force_poll_at > latest_checked_at),
			(SELECT min(latest_checked_at) FROM series WHERE site = $1)`, site).Scan(&pending, &oldest)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: next due: %w", err)
	}
	switch {
	case pending:
		return now, true, nil
	case oldest == nil:
		return time.Time{}, false, nil
	}
	next = oldest.Add(rest)
	if next.Before(now) {
		next = now
	}
	return next, true, nil
}

// StampChecked sets latest_checked_at just before a fetch and consumes any
// pending Forced Poll (the read about to happen answers it). It reports
// false when the Series no longer exists.
func (s *Store) StampChecked(ctx context.Context, site, seriesID string, now time.Time) (bool, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE series SET latest_checked_at = $3, force_poll_at = NULL
		WHERE site = $1 AND series_id = $2`, site, seriesID, now)
	if err != nil {
		return false, fmt.Errorf("store: stamp checked: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// ReadFacts is what a good read learned, in store terms. Empty Title or
// CoverURL keep the stored value; Number is a decimal string.
type ReadFacts struct {
	Title      string
	CoverURL   string
	Number     string
	ChTitle    string
	ChURL      string
	ReleasedAt *time.Time
}

// OKResult tells the Lane what a good read changed.
type OKResult struct {
	New       bool   // the Latest Chapter number moved from a known one
	CoverURL  string // the cover URL now stored
	NeedCover bool   // no stored image from CoverURL: a cover heal is due
}

// RecordOK stores a good read in one statement: title, cover URL and Latest
// Chapter (latest_seen_at moves only when the number changed) and deletes the
// failure row. A read that changes nothing writes no new row version (most
// hourly reads find nothing new). ErrNotFound when the Series was deleted
// meanwhile.
func (s *Store) RecordOK(ctx context.Context, site, seriesID string, f ReadFacts, now time.Time) (OKResult, error) {
	var r OKResult
	err := s.pool.QueryRow(ctx, `
		WITH old AS (
			SELECT site, series_id, latest_number, latest_seen_at,
				CASE WHEN $3 <> '' THEN $3 ELSE title END AS new_title,
				CASE WHEN $4 <> '' THEN $4 ELSE cover_url END AS new_cover,
				(title, cover_url, latest_number, latest_title, latest_url, latest_released_at) AS cur
			FROM series WHERE site = $1 AND series_id = $2
		), upd AS (
			UPDATE series s SET title = old.new_title, cover_url = old.new_cover,
				latest_number = $5::numeric, latest_title = $6, latest_url = $7, latest_released_at = $8,
				latest_seen_at = CASE WHEN old.latest_number IS DISTINCT FROM $5::numeric OR old.latest_seen_at IS NULL
					THEN $9 ELSE old.latest_seen_at END
			FROM old WHERE s.site = old.site AND s.series_id = old.series_id
				AND (old.cur IS DISTINCT FROM (old.new_title, old.new_cover, $5::numeric, $6::text, $7::text, $8::timestamptz)
					OR old.latest_seen_at IS NULL)
		), del AS (
			DELETE FROM poll_failures WHERE site = $1 AND series_id = $2
		)
		SELECT coalesce(old.latest_number <> $5::numeric, false), old.new_cover,
			old.new_cover <> '' AND NOT EXISTS (SELECT 1 FROM covers c
				WHERE c.site = $1 AND c.series_id = $2 AND c.source_url = old.new_cover)
		FROM old`,
		site, seriesID, safetext.Line(f.Title), safetext.URL(f.CoverURL), f.Number, safetext.Line(f.ChTitle), safetext.URL(f.ChURL), f.ReleasedAt, now).Scan(&r.New, &r.CoverURL, &r.NeedCover)
	if err != nil {
		return OKResult{}, notFound("record ok", err)
	}
	return r, nil
}

// ForcePoll asks the Site's Lane to read the Series on its next pass and
// returns the stamp stored; ErrNotFound for an unknown Series.
func (s *Store) ForcePoll(ctx context.Context, site, seriesID string, now time.Time) (time.Time, error) {
	var at time.Time
	err := s.pool.QueryRow(ctx, `UPDATE series SET force_poll_at = $3
		WHERE site = $1 AND series_id = $2 RETURNING force_poll_at`, site, seriesID, now).Scan(&at)
	if err != nil {
		return time.Time{}, notFound("force poll", err)
	}
	return at, nil
}
