package store

import (
	"context"
	"fmt"
	"time"

	"mangabookmark/backend/safetext"
)

// SetProgress sets a Reader's Progress on a bookmarked Series to exactly
// number (lower or higher than before): the Reader's explicit correction,
// for instance after a forged read moved it. Unlike a read it is not
// bounded by the Latest Chapter and it may move Progress back. number is a
// normalised decimal string. ErrNotFound when the Reader has no such
// bookmark.
func (s *Store) SetProgress(ctx context.Context, readerID int64, site, seriesID, number, url string, at time.Time) error {
	var have bool
	err := s.pool.QueryRow(ctx, `
		WITH b AS (
			SELECT 1 FROM bookmarks WHERE reader_id = $1 AND site = $2 AND series_id = $3
		), up AS (
			INSERT INTO progress (reader_id, site, series_id, number, url, read_at, updated_at)
			SELECT $1::bigint, $2::text, $3::text, $4::numeric, $5::text, $6::timestamptz, now() FROM b
			ON CONFLICT (reader_id, site, series_id) DO UPDATE
				SET number = excluded.number, url = excluded.url, read_at = excluded.read_at, updated_at = now(),
					source = 'reader'
		)
		SELECT EXISTS (SELECT 1 FROM b)`, readerID, site, seriesID, number, safetext.URL(url), at).Scan(&have)
	if err != nil {
		return fmt.Errorf("store: set progress: %w", err)
	}
	if !have {
		return ErrNotFound
	}
	return nil
}
