package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// StatusLine is one status change of a story a Reader follows, told once
// in their Digest.
type StatusLine struct {
	ChangeID     int64
	WorkID       *int64 // the shared Work; nil for a lone Series
	Site         string // the Series whose read made the change
	SeriesID     string
	Title        string
	Status       string // the status now
	Was          string // the status before
	FinalChapter string // "" when none is known
	ChangedAt    time.Time
}

// statusReadySQL is readyReaders' arm for status lines: a Reader owed one
// is ready from the change's time (the digest window then applies as to a
// Chapter notice).
const statusReadySQL = `SELECT reader_id, changed_at FROM reader_status_notices WHERE done_at IS NULL`

// statusOf reads the claimed Readers' ($1) untold status lines, oldest
// first.
const statusOf = `
	SELECT n.reader_id, c.id, c.work_id, c.site, c.series_id, s.title, c.status, c.was,
		coalesce(c.final_chapter::text, ''), c.changed_at
	FROM reader_status_notices n
	JOIN status_changes c ON c.id = n.change_id
	JOIN series s ON s.site = c.site AND s.series_id = c.series_id
	WHERE n.reader_id = ANY($1) AND n.done_at IS NULL
	ORDER BY n.reader_id, c.changed_at, c.id`

// queueStatusTold settles the status lines a Digest told.
func queueStatusTold(b *pgx.Batch, readerID int64, lines []StatusLine, now time.Time) {
	if len(lines) == 0 {
		return
	}
	ids := make([]int64, len(lines))
	for i, l := range lines {
		ids[i] = l.ChangeID
	}
	b.Queue(`UPDATE reader_status_notices SET done_at = $3
		WHERE reader_id = $1 AND change_id = ANY($2) AND done_at IS NULL`, readerID, ids, now)
}

// FeedStatusLines returns the status lines owed to a Reader since since
// (told or not), newest first, at most limit: the Atom feed's entries of
// status changes, as FeedChapters gives its chapters.
func (s *Store) FeedStatusLines(ctx context.Context, readerID int64, since time.Time, limit int) ([]StatusLine, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT c.id, c.work_id, c.site, c.series_id, s.title, c.status, c.was, coalesce(c.final_chapter::text, ''), c.changed_at
		FROM reader_status_notices n
		JOIN status_changes c ON c.id = n.change_id
		JOIN series s ON s.site = c.site AND s.series_id = c.series_id
		WHERE n.reader_id = $1 AND n.changed_at >= $2
		ORDER BY n.changed_at DESC, c.id DESC LIMIT $3`, readerID, since, limit)
	if err != nil {
		return nil, fmt.Errorf("store: feed status lines: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (StatusLine, error) {
		var l StatusLine
		return l, r.Scan(&l.ChangeID, &l.WorkID, &l.Site, &l.SeriesID, &l.Title, &l.Status, &l.Was, &l.FinalChapter, &l.ChangedAt)
	})
	if err != nil {
		return nil, fmt.Errorf("store: feed status lines: %w", err)
	}
	return out, nil
}
