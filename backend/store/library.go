package store

import (
	"context"
	"fmt"
	"time"
)

// LibraryItem is one row of a Reader's library page: the bookmark with what
// its Lane knows of it.
type LibraryItem struct {
	Bookmark
	CheckedAt      *time.Time // the Lane's last read of the Series; nil: not read yet
	FailingSince   *time.Time // the Series' failure row, when failing
	FailingOutcome string
	// ContinueNumber and ContinueURL are the first chapter after the
	// Reader's Progress whose page the Lanes saw (a Chapter Event with a
	// URL); both "" when none is known, and then the Latest is the way on.
	ContinueNumber, ContinueURL string
}

// Library returns a Reader's bookmarks in the library's order: New Chapters
// first, then by Latest Chapter date (newest first, unknown last), then by
// title and id, so the order is stable.
func (s *Store) Library(ctx context.Context, readerID int64) ([]LibraryItem, error) {
	return s.library(ctx, readerID, "true")
}

// LibraryEntry is one bookmark as Library shows it (the Series page), or
// ErrNotFound when the Reader has no bookmark for the Series.
func (s *Store) LibraryEntry(ctx context.Context, readerID int64, site, seriesID string) (LibraryItem, error) {
	if site == "" {
		return LibraryItem{}, ErrNotFound
	}
	items, err := s.library(ctx, readerID, "b.site = $2 AND b.series_id = $3", site, seriesID)
	if err != nil {
		return LibraryItem{}, err
	}
	if len(items) == 0 {
		return LibraryItem{}, ErrNotFound
	}
	return items[0], nil
}

// LibraryOf is Library narrowed to the named Series (those the Reader
// bookmarks; the others are left out), in the library's order: the rows
// of the cards one library page draws.
func (s *Store) LibraryOf(ctx context.Context, readerID int64, series []SeriesRef) ([]LibraryItem, error) {
	sites, ids := make([]string, len(series)), make([]string, len(series))
	for i, r := range series {
		sites[i], ids[i] = r.Site, r.SeriesID
	}
	return s.library(ctx, readerID, "(b.site, b.series_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))", sites, ids)
}

// libraryOrder is the library's order over a row of bookmark b, Series s
// and is_new.
const libraryOrder = `ORDER BY is_new DESC, coalesce(s.latest_released_at, s.latest_seen_at) DESC NULLS LAST,
			s.title, s.site, s.series_id`

// LibraryIndex is Library with only what sorting, filtering, counting and
// grouping the cards needs: Site, SeriesID, Title, CreatedAt,
// LatestSeenAt, New and WorkID (the other fields are zero), in the same
// order. The library page reads it for every bookmark and the whole rows
// (LibraryOf) only for the cards it draws: at 2,000 bookmarks the whole
// rows' joins (Continue, covers, failures) cost several times the index.
func (s *Store) LibraryIndex(ctx context.Context, readerID int64) ([]LibraryItem, error) {
	rows, err := s.pool.Query(ctx, readerWorks("true")+`
		SELECT s.site, s.series_id, s.title, b.created_at, s.latest_seen_at, `+isNewSQL+` AS is_new, wm.work_id
		FROM bookmarks b
		JOIN series s ON s.site = b.site AND s.series_id = b.series_id
		LEFT JOIN progress p ON p.reader_id = b.reader_id AND p.site = b.site AND p.series_id = b.series_id`+workJoin+`
		WHERE b.reader_id = $1
		`+libraryOrder, readerID)
	if err != nil {
		return nil, fmt.Errorf("store: library index: %w", err)
	}
	defer rows.Close()
	out := []LibraryItem{}
	for rows.Next() {
		var it LibraryItem
		b := &it.Bookmark
		if err := rows.Scan(&b.Site, &b.SeriesID, &b.Title, &b.CreatedAt, &b.LatestSeenAt, &b.New, &b.WorkID); err != nil {
			return nil, fmt.Errorf("store: library index: %w", err)
		}
		out = append(out, it)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: library index: %w", err)
	}
	return out, nil
}

// library is Library narrowed by the condition narrow on bookmark b, over
// the parameters after the Reader ($2 on). Each narrowing is its own
// statement rather than parameters of one ("$2 = ” OR ..."): a prepared
// plan of that one is costed for a handful of rows, and PostgreSQL
// settles on it for the whole library too.
func (s *Store) library(ctx context.Context, readerID int64, narrow string, params ...any) ([]LibraryItem, error) {
	args := append([]any{readerID}, params...)
	rows, err := s.pool.Query(ctx, readerWorks(narrow)+`
		SELECT s.site, s.series_id, s.title, s.url, s.cover_url, (c.site IS NOT NULL), b.created_at, b.added_by,
			coalesce(s.latest_number::text, ''), s.latest_title, s.latest_url, s.latest_seen_at,
			coalesce(p.number::text, ''), coalesce(p.url, ''), p.read_at,
			`+isNewSQL+` AS is_new, wm.work_id,
			s.latest_checked_at, f.failing_since, coalesce(f.outcome, ''),
			b.notify_mode, b.notify_pile, b.notify_pile_days,
			coalesce(nx.number::text, ''), coalesce(nx.url, '')
		FROM bookmarks b
		JOIN series s ON s.site = b.site AND s.series_id = b.series_id
		LEFT JOIN progress p ON p.reader_id = b.reader_id AND p.site = b.site AND p.series_id = b.series_id
		LEFT JOIN poll_failures f ON f.site = b.site AND f.series_id = b.series_id`+workJoin+`
		LEFT JOIN LATERAL (SELECT site FROM covers c
			WHERE c.site = s.site AND c.series_id = s.series_id) c ON true
		LEFT JOIN LATERAL (SELECT e.number, e.url FROM chapter_events e
			WHERE s.latest_number > p.number AND e.site = s.site AND e.series_id = s.series_id
				AND e.number > p.number AND e.url <> ''
			ORDER BY e.number LIMIT 1) nx ON true
		WHERE b.reader_id = $1 AND (`+narrow+`)
		`+libraryOrder, args...)
	if err != nil {
		return nil, fmt.Errorf("store: library: %w", err)
	}
	defer rows.Close()
	out := []LibraryItem{}
	for rows.Next() {
		var it LibraryItem
		b := &it.Bookmark
		if err := rows.Scan(&b.Site, &b.SeriesID, &b.Title, &b.URL, &b.CoverURL, &b.HasCover, &b.CreatedAt, &b.AddedBy,
			&b.LatestNumber, &b.LatestTitle, &b.LatestURL, &b.LatestSeenAt,
			&b.ProgressNumber, &b.ProgressURL, &b.ProgressReadAt, &b.New, &b.WorkID,
			&it.CheckedAt, &it.FailingSince, &it.FailingOutcome,
			&b.NotifyMode, &b.NotifyPile, &b.NotifyPileDays,
			&it.ContinueNumber, &it.ContinueURL); err != nil {
			return nil, fmt.Errorf("store: library: %w", err)
		}
		out = append(out, it)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: library: %w", err)
	}
	return out, nil
}

// MarkRead sets a Reader's Progress on a bookmarked Series to its Latest
// Chapter, read at `at`. Like every read it only moves Progress forward. It
// reports whether Progress moved; a Series with no Latest Chapter known
// moves nothing. A bookmark the Reader does not have is ErrNotFound (and is
// not created, unlike a read from the userscript).
func (s *Store) MarkRead(ctx context.Context, readerID int64, site, seriesID string, at time.Time) (bool, error) {
	var found, moved bool
	err := s.pool.QueryRow(ctx, `
		WITH src AS (
			SELECT b.reader_id, b.site, b.series_id, s.latest_number, s.latest_url
			FROM bookmarks b JOIN series s ON s.site = b.site AND s.series_id = b.series_id
			WHERE b.reader_id = $1 AND b.site = $2 AND b.series_id = $3
		), up AS (
			INSERT INTO progress (reader_id, site, series_id, number, url, read_at, updated_at)
			SELECT reader_id, site, series_id, latest_number, latest_url, $4, now()
			FROM src WHERE latest_number IS NOT NULL
			ON CONFLICT (reader_id, site, series_id) DO UPDATE
				SET number = excluded.number, url = excluded.url, read_at = excluded.read_at, updated_at = now()
				WHERE excluded.number > progress.number
			RETURNING 1
		)
		SELECT EXISTS (SELECT 1 FROM src), EXISTS (SELECT 1 FROM up)`,
		readerID, site, seriesID, at).Scan(&found, &moved)
	if err != nil {
		return false, fmt.Errorf("store: mark read: %w", err)
	}
	if !found {
		return false, ErrNotFound
	}
	return moved, nil
}
