package store

import (
	"context"
	"fmt"
	"time"

	"mangabookmark/backend/safetext"
)

// Series is one row of the series table.
type Series struct {
	Site             string
	SeriesID         string
	URL              string
	Title            string
	CoverURL         string
	LatestNumber     string // decimal string, "" when no Latest Chapter is known
	LatestTitle      string
	LatestURL        string
	LatestReleasedAt *time.Time
	LatestSeenAt     *time.Time // when the current Latest Chapter was first read
	LatestCheckedAt  *time.Time // stamped just before each fetch
	ForcePollAt      *time.Time
	CreatedAt        time.Time
}

const seriesColumns = `site, series_id, url, title, cover_url, coalesce(latest_number::text, ''),
	latest_title, latest_url, latest_released_at, latest_seen_at, latest_checked_at,
	force_poll_at, created_at`

type scanner interface{ Scan(dest ...any) error }

func scanSeries(row scanner) (Series, error) {
	var s Series
	err := row.Scan(&s.Site, &s.SeriesID, &s.URL, &s.Title, &s.CoverURL, &s.LatestNumber,
		&s.LatestTitle, &s.LatestURL, &s.LatestReleasedAt, &s.LatestSeenAt, &s.LatestCheckedAt,
		&s.ForcePollAt, &s.CreatedAt)
	return s, err
}

// EnsureSeries inserts the Series if it is not known yet; an existing row is
// left as it is. It reports whether a row was created.
func (s *Store) EnsureSeries(ctx context.Context, site, seriesID, url string) (bool, error) {
	tag, err := s.pool.Exec(ctx, `
		INSERT INTO series (site, series_id, url) VALUES ($1, $2, $3)
		ON CONFLICT (site, series_id) DO NOTHING`, site, seriesID, safetext.URL(url))
	if err != nil {
		return false, fmt.Errorf("store: ensure series: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// GetSeries returns one Series, or ErrNotFound.
func (s *Store) GetSeries(ctx context.Context, site, seriesID string) (Series, error) {
	row := s.pool.QueryRow(ctx, `SELECT `+seriesColumns+` FROM series WHERE site = $1 AND series_id = $2`, site, seriesID)
	out, err := scanSeries(row)
	if err != nil {
		return Series{}, notFound("get series", err)
	}
	return out, nil
}

// DeleteSeries removes a Series; its bookmarks, Progress, failure row and
// cover go with it through the foreign keys' cascades.
func (s *Store) DeleteSeries(ctx context.Context, site, seriesID string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM series WHERE site = $1 AND series_id = $2`, site, seriesID)
	if err != nil {
		return fmt.Errorf("store: delete series: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

// CountSeries returns how many Series a Site has.
func (s *Store) CountSeries(ctx context.Context, site string) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM series WHERE site = $1`, site).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count series: %w", err)
	}
	return n, nil
}

// CountSeriesUpTo counts a Site's Series but stops at limit, so its cost
// does not grow with the table: a Lane's effective gap is the same for
// every count past 1h / GapFloor (3600), so it never needs more. The
// ORDER BY keeps the walk on the primary key's index (a sequential scan
// would read the whole table when the Site's rows sit at its end).
// Slow Series (slow.go) are not counted: they rest a day, not the Rest.
func (s *Store) CountSeriesUpTo(ctx context.Context, site string, limit int) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM series WHERE site = $1 AND NOT slow ORDER BY series_id LIMIT $2) s`, site, limit).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: count series: %w", err)
	}
	return n, nil
}
