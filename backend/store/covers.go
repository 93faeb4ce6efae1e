package store

import (
	"context"
	"fmt"
	"time"
)

// Cover is a stored cover image of one Series.
type Cover struct {
	ContentType string
	Body        []byte
	FetchedAt   time.Time
	SourceURL   string
}

// PutCover stores (or replaces) the Series' cover image. A Series deleted in
// the meantime is not an error: nothing is stored.
func (s *Store) PutCover(ctx context.Context, site, seriesID string, c Cover) error {
	_, err := s.pool.Exec(ctx, `
		INSERT INTO covers (site, series_id, source_url, content_type, body, fetched_at)
		SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM series WHERE site = $1 AND series_id = $2)
		ON CONFLICT (site, series_id) DO UPDATE SET source_url = EXCLUDED.source_url,
			content_type = EXCLUDED.content_type, body = EXCLUDED.body, fetched_at = EXCLUDED.fetched_at`,
		site, seriesID, c.SourceURL, c.ContentType, c.Body, c.FetchedAt)
	if err != nil {
		return fmt.Errorf("store: put cover: %w", err)
	}
	return nil
}

// GetCover returns the Series' stored cover, or ErrNotFound.
func (s *Store) GetCover(ctx context.Context, site, seriesID string) (Cover, error) {
	var c Cover
	err := s.pool.QueryRow(ctx, `SELECT content_type, body, fetched_at, source_url FROM covers
		WHERE site = $1 AND series_id = $2`, site, seriesID).Scan(&c.ContentType, &c.Body, &c.FetchedAt, &c.SourceURL)
	if err != nil {
		return Cover{}, notFound("get cover", err)
	}
	return c, nil
}

// GetReaderCover is GetCover for a Reader: only the cover of a Series the
// Reader bookmarks; any other is ErrNotFound, as a Series with no cover.
func (s *Store) GetReaderCover(ctx context.Context, readerID int64, site, seriesID string) (Cover, error) {
	var c Cover
	err := s.pool.QueryRow(ctx, `SELECT c.content_type, c.body, c.fetched_at, c.source_url FROM covers c
		JOIN bookmarks b ON b.site = c.site AND b.series_id = c.series_id AND b.reader_id = $1
		WHERE c.site = $2 AND c.series_id = $3`, readerID, site, seriesID).Scan(&c.ContentType, &c.Body, &c.FetchedAt, &c.SourceURL)
	if err != nil {
		return Cover{}, notFound("get cover", err)
	}
	return c, nil
}
