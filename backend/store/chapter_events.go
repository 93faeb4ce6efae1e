package store

import (
	"context"
	"fmt"
	"time"
)

// ChapterEvent is one row of chapter_events joined with its Series' title.
type ChapterEvent struct {
	ID           int64
	Site         string
	SeriesID     string
	SeriesTitle  string
	Number       string // decimal string
	ChapterTitle string
	URL          string
	SeenAt       time.Time
}

// ReaderChapters returns the Chapter Events of a Reader's bookmarks seen at
// or after since, newest first, at most limit.
func (s *Store) ReaderChapters(ctx context.Context, readerID int64, since time.Time, limit int) ([]ChapterEvent, error) {
	return s.readerChapters(ctx, readerID, since, limit, false)
}

// FeedChapters is ReaderChapters less the events seen before the Reader
// bookmarked their Series: the rule that owes a notice (owedInsert: the
// bookmark older than the event), so the feed, like the notices, tells of
// nothing out before a bookmark or an import made it; and, like the
// notices, tells a Work's chapter number once, from the first member
// that showed it.
func (s *Store) FeedChapters(ctx context.Context, readerID int64, since time.Time, limit int) ([]ChapterEvent, error) {
	return s.readerChapters(ctx, readerID, since, limit, true)
}

// readerChaptersSQL lists the Chapter Events of a Reader's bookmarks ($1)
// seen at or after $2, newest first, at most $3.
const readerChaptersSQL = `
	SELECT e.id, e.site, e.series_id, s.title, e.number::text, e.title, e.url, e.seen_at
	FROM bookmarks b
	JOIN chapter_events e ON e.site = b.site AND e.series_id = b.series_id
	JOIN series s ON s.site = b.site AND s.series_id = b.series_id
	WHERE b.reader_id = $1 AND e.seen_at >= $2
	ORDER BY e.seen_at DESC, e.id DESC LIMIT $3`

// feedChaptersSQL is readerChaptersSQL for the feed: events after the
// bookmark, and of the events of one shared Work and number (in the
// Reader's Work numbers, memberOffSQL; a member the Reader unlinked is in
// no Work for them, memberInWorkSQL) only the first seen, as the notices
// tell it once.
var feedChaptersSQL = `
	SELECT id, site, series_id, stitle, number::text, title, url, seen_at FROM (
		SELECT DISTINCT ON (coalesce(m.work_id, -e.id), e.number + coalesce(` + memberOffSQL("b.reader_id", "m") + `, 0))
			e.id, e.site, e.series_id, s.title AS stitle, e.number, e.title, e.url, e.seen_at
		FROM bookmarks b
		JOIN chapter_events e ON e.site = b.site AND e.series_id = b.series_id
		JOIN series s ON s.site = b.site AND s.series_id = b.series_id
		LEFT JOIN work_members m ON m.site = b.site AND m.series_id = b.series_id AND ` + memberInWorkSQL("b.reader_id", "m") + `
		WHERE b.reader_id = $1 AND e.seen_at >= $2 AND b.created_at < e.seen_at
		ORDER BY coalesce(m.work_id, -e.id), e.number + coalesce(` + memberOffSQL("b.reader_id", "m") + `, 0), e.seen_at, e.id
	) x
	ORDER BY seen_at DESC, id DESC LIMIT $3`

func (s *Store) readerChapters(ctx context.Context, readerID int64, since time.Time, limit int, owedOnly bool) ([]ChapterEvent, error) {
	q := readerChaptersSQL
	if owedOnly {
		q = feedChaptersSQL
	}
	rows, err := s.pool.Query(ctx, q, readerID, since, limit)
	if err != nil {
		return nil, fmt.Errorf("store: reader chapters: %w", err)
	}
	defer rows.Close()
	out := []ChapterEvent{}
	for rows.Next() {
		var e ChapterEvent
		if err := rows.Scan(&e.ID, &e.Site, &e.SeriesID, &e.SeriesTitle, &e.Number, &e.ChapterTitle, &e.URL, &e.SeenAt); err != nil {
			return nil, fmt.Errorf("store: reader chapters: %w", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reader chapters: %w", err)
	}
	return out, nil
}

// PruneChapterEvents deletes Chapter Events seen before cutoff and the
// notices they owed (reader_notices has no foreign key, see migration
// 0006) and reports how many events went.
func (s *Store) PruneChapterEvents(ctx context.Context, cutoff time.Time) (int64, error) {
	var n int64
	err := s.pool.QueryRow(ctx, `WITH gone AS (DELETE FROM chapter_events WHERE seen_at < $1 RETURNING id),
		owed AS (DELETE FROM reader_notices WHERE event_id IN (SELECT id FROM gone))
		SELECT count(*) FROM gone`, cutoff).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: prune chapter events: %w", err)
	}
	return n, nil
}

// SetBaseline gives a Series a highest number as if an earlier read had
// seen it, so the next read above it records a Chapter Event. It is for
// the demo's seeding and for tests; the Lanes never call it.
func (s *Store) SetBaseline(ctx context.Context, site, seriesID, number string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE series SET max_number = $3::numeric WHERE site = $1 AND series_id = $2`, site, seriesID, number)
	if err != nil {
		return fmt.Errorf("store: set baseline: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}
