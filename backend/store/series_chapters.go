package store

import (
	"context"
	"fmt"
)

// SeriesChapters returns a Series' latest Chapter Events, newest number
// first, at most limit: what the Series page lists as "lately".
func (s *Store) SeriesChapters(ctx context.Context, site, seriesID string, limit int) ([]ChapterEvent, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT e.id, e.site, e.series_id, s.title, e.number::text, e.title, e.url, e.seen_at
		FROM chapter_events e JOIN series s ON s.site = e.site AND s.series_id = e.series_id
		WHERE e.site = $1 AND e.series_id = $2
		ORDER BY e.number DESC LIMIT $3`, site, seriesID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: series chapters: %w", err)
	}
	defer rows.Close()
	out := []ChapterEvent{}
	for rows.Next() {
		var e ChapterEvent
		if err := rows.Scan(&e.ID, &e.Site, &e.SeriesID, &e.SeriesTitle, &e.Number, &e.ChapterTitle, &e.URL, &e.SeenAt); err != nil {
			return nil, fmt.Errorf("store: series chapters: %w", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: series chapters: %w", err)
	}
	return out, nil
}
