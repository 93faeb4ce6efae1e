package store

import (
	"context"
	"time"
)

// CoverImage is a stored cover as the API serves it.
type CoverImage struct {
	ContentType string
	Body        []byte
	FetchedAt   time.Time
}

// LoadCoverImage returns the stored cover of a Series, or ErrNotFound.
// (A read-only query for serving; the Lanes own writing covers.)
func (s *Store) LoadCoverImage(ctx context.Context, site, seriesID string) (CoverImage, error) {
	var c CoverImage
	err := s.pool.QueryRow(ctx, `SELECT content_type, body, fetched_at FROM covers
		WHERE site = $1 AND series_id = $2`, site, seriesID).Scan(&c.ContentType, &c.Body, &c.FetchedAt)
	if err != nil {
		return CoverImage{}, notFound("load cover image", err)
	}
	return c, nil
}
