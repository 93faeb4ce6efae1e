package store

import (
	"context"
	"fmt"
	"time"
)

// eventInsert is RecordOK's Chapter Event step (a CTE body over its "old"
// row and parameters): a number above the Series' highest ever records one
// event; a Series with no highest yet (its first good read) records none.
const eventInsert = `INSERT INTO chapter_events (site, series_id, number, title, url, seen_at)
			SELECT old.site, old.series_id, $5::numeric, $6, $7, $9 FROM old
			WHERE old.max_number IS NOT NULL AND $5::numeric > old.max_number
			ON CONFLICT (site, series_id, number) DO NOTHING
			RETURNING id, site, series_id, number, seen_at`

// owedInsert is RecordOK's fan-out step over the event just recorded.
//
// A Series in no Work: each Reader who bookmarked the Series before the
// event (no backfill), whose Progress is below the number (or who has
// none) and whose bookmark is not muted is owed one notice; the primary
// key keeps it to one per number, ever.
//
// A member of a Work (wk, works_numbers.go) is told once
// (docs/adr/0021-works-link-by-ids.md): the event owes only when its number
// in Work terms is above every other member's highest shown inside the
// Work's current epoch (wk.others_max), so the first member to show a
// number inside the Work tells it and a later one owes nothing; and not
// while the member is held for drift. It then owes each Reader of any
// member one notice, on their bookmark of the member that showed it when
// they have one, whose Progress on the Work is below the number, unless
// the Reader was told the number already (a notice, in any state, of it
// or a higher one on a member) or a member they bookmark besides this one
// has shown it (told then, or out before the bookmark: no backfill). A
// number another member showed before the Work's membership last changed
// was not told to this member's Readers, so it is told to them now, when
// their Site shows it. The unique (reader, work, number) index keeps a
// concurrent Lane's read of another member from owing it twice. A Reader who prefers another Site
// for the Work (work_prefs) is owed it held up to their hold minutes
// (held_until): heldRelease hands it the preferred member's chapter if
// that member shows the number first.
const owedInsert = `INSERT INTO reader_notices (reader_id, site, series_id, number, event_id, seen_at, work_id, work_number, held_until)
			(SELECT b.reader_id, ev.site, ev.series_id, ev.number, ev.id, ev.seen_at, NULL::bigint, NULL::numeric, NULL::timestamptz
			FROM ev JOIN bookmarks b ON b.site = ev.site AND b.series_id = ev.series_id
			LEFT JOIN progress p ON p.reader_id = b.reader_id AND p.site = b.site AND p.series_id = b.series_id
			WHERE NOT EXISTS (SELECT 1 FROM wk) AND b.created_at < ev.seen_at AND b.notify_mode <> 'off'
				AND (p.number IS NULL OR p.number < ev.number))
			UNION ALL
			(SELECT DISTINCT ON (b.reader_id) b.reader_id, b.site, b.series_id, ev.number + wk.off - bm."offset",
				ev.id, ev.seen_at, wk.work_id, ev.number + wk.off,
				CASE WHEN wp.site <> ev.site THEN ev.seen_at + wp.hold_minutes * interval '1 minute' END
			FROM ev CROSS JOIN wk
			JOIN work_members bm ON bm.work_id = wk.work_id
			JOIN bookmarks b ON b.site = bm.site AND b.series_id = bm.series_id
			LEFT JOIN work_prefs wp ON wp.reader_id = b.reader_id AND wp.work_id = wk.work_id
			WHERE (wk.others_max IS NULL OR ev.number + wk.off > wk.others_max)
				AND NOT coalesce(wk.drift_since <= ev.seen_at - interval '1 day'
					AND ev.number + wk.off > wk.others_latest + ` + driftMarginSQL + `, false)
				AND b.created_at < ev.seen_at AND b.notify_mode <> 'off'
				AND NOT EXISTS (SELECT 1 FROM work_members m3 JOIN progress p3
					ON p3.reader_id = b.reader_id AND p3.site = m3.site AND p3.series_id = m3.series_id
					WHERE m3.work_id = wk.work_id AND p3.number + m3."offset" >= ev.number + wk.off)
				AND NOT EXISTS (SELECT 1 FROM work_members m3 JOIN reader_notices n3
					ON n3.reader_id = b.reader_id AND n3.site = m3.site AND n3.series_id = m3.series_id
					WHERE m3.work_id = wk.work_id AND n3.number + m3."offset" >= ev.number + wk.off)
				AND NOT EXISTS (SELECT 1 FROM work_members m3
					JOIN bookmarks b3 ON b3.reader_id = b.reader_id AND b3.site = m3.site AND b3.series_id = m3.series_id
					JOIN series s3 ON s3.site = m3.site AND s3.series_id = m3.series_id
					WHERE m3.work_id = wk.work_id AND (m3.site, m3.series_id) <> (ev.site, ev.series_id)
						AND s3.max_number + m3."offset" >= ev.number + wk.off)
			ORDER BY b.reader_id, (b.site = ev.site AND b.series_id = ev.series_id) DESC, b.site, b.series_id)
			ON CONFLICT DO NOTHING
			RETURNING 1`

// heldRelease is RecordOK's step for a preferred member showing a number
// another member showed first: each Reader who prefers this member's Site
// and still owes the Work's notice of the number has it point at this
// chapter (and at their bookmark of this member, when they have one) and
// no longer held (docs/adr/0021-works-link-by-ids.md, "Hold").
// The later member owes nothing new, so the notice stays one.
const heldRelease = `UPDATE reader_notices n SET event_id = ev.id, held_until = NULL,
				site = coalesce(pb.site, n.site), series_id = coalesce(pb.series_id, n.series_id),
				number = CASE WHEN pb.site IS NULL THEN n.number ELSE ev.number END
			FROM ev CROSS JOIN wk
			JOIN work_prefs wp ON wp.work_id = wk.work_id
			LEFT JOIN bookmarks pb ON pb.reader_id = wp.reader_id AND pb.site = ev.site AND pb.series_id = ev.series_id
				AND NOT EXISTS (SELECT 1 FROM reader_notices x WHERE x.reader_id = wp.reader_id
					AND x.site = ev.site AND x.series_id = ev.series_id AND x.number = ev.number)
			WHERE wp.site = ev.site AND n.reader_id = wp.reader_id AND n.work_id = wk.work_id
				AND n.work_number = ev.number + wk.off AND n.held_until IS NOT NULL AND n.done_at IS NULL
			RETURNING 1`

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
// bookmark, and of the events of one shared Work and number (in Work
// numbers) only the first seen, as the notices tell it once.
const feedChaptersSQL = `
	SELECT id, site, series_id, stitle, number::text, title, url, seen_at FROM (
		SELECT DISTINCT ON (coalesce(m.work_id, -e.id), e.number + coalesce(m."offset", 0))
			e.id, e.site, e.series_id, s.title AS stitle, e.number, e.title, e.url, e.seen_at
		FROM bookmarks b
		JOIN chapter_events e ON e.site = b.site AND e.series_id = b.series_id
		JOIN series s ON s.site = b.site AND s.series_id = b.series_id
		LEFT JOIN work_members m ON m.site = b.site AND m.series_id = b.series_id
		WHERE b.reader_id = $1 AND e.seen_at >= $2 AND b.created_at < e.seen_at
		ORDER BY coalesce(m.work_id, -e.id), e.number + coalesce(m."offset", 0), e.seen_at, e.id
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
