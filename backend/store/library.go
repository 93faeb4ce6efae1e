package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
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
	// URL, or the Latest); both "" when none is known. Continue (continue.go)
	// tells whether it is the chapter right after Progress.
	ContinueNumber, ContinueURL string
	// GivenTitle is the title an import or the Reader's phone gave the
	// Series ("" for none): the Reader's own word, for the pages to show
	// only while Title is "" (the Lane has read none).
	GivenTitle string
}

// Library returns a Reader's bookmarks in the library's order: New Chapters
// first, then by Latest Chapter date (newest first, unknown last), then by
// title and id, so the order is stable. No page reads it: it is the
// row-by-row oracle that TestLibraryPageAgrees holds LibraryPage to, and
// the slower read a whole library takes.
func (s *Store) Library(ctx context.Context, readerID int64) ([]LibraryItem, error) {
	return s.library(ctx, "true", namedArgs{"reader": readerID})
}

// LibraryEntry is one bookmark as Library shows it (the Series page), or
// ErrNotFound when the Reader has no bookmark for the Series.
func (s *Store) LibraryEntry(ctx context.Context, readerID int64, site, seriesID string) (LibraryItem, error) {
	if site == "" {
		return LibraryItem{}, ErrNotFound
	}
	items, err := s.library(ctx, "b.site = @site AND b.series_id = @series_id",
		namedArgs{"reader": readerID, "site": site, "series_id": seriesID})
	if err != nil {
		return LibraryItem{}, err
	}
	if len(items) == 0 {
		return LibraryItem{}, ErrNotFound
	}
	return items[0], nil
}

// LibraryOfWork is Library narrowed to the Reader's bookmarks in Work
// workID as they see it (their own hand links decide), in its order: the
// Work page's rows.
func (s *Store) LibraryOfWork(ctx context.Context, readerID, workID int64) ([]LibraryItem, error) {
	items, err := s.library(ctx, `(b.site, b.series_id) IN (
		SELECT site, series_id FROM work_members WHERE work_id = @work
		UNION SELECT site, series_id FROM work_hand_links WHERE reader_id = @reader AND work_id = @work)`,
		namedArgs{"reader": readerID, "work": workID})
	if err != nil {
		return nil, err
	}
	out := items[:0]
	for _, it := range items {
		if it.WorkID != nil && *it.WorkID == workID { // not a member they hand-linked elsewhere
			out = append(out, it)
		}
	}
	return out, nil
}

// libraryOrder is the library's order over a row of bookmark b, Series s
// and is_new.
const libraryOrder = `ORDER BY is_new DESC, coalesce(s.latest_released_at, s.latest_seen_at) DESC NULLS LAST,
			s.title, s.site, s.series_id`

// library is Library narrowed by the condition narrow on bookmark b, over
// the named arguments args (the Reader's as @reader). Each narrowing is its
// own statement rather than parameters of one ("@site = ” OR ..."): a
// prepared plan of that one is costed for a handful of rows, and
// PostgreSQL settles on it for the whole library too.
func (s *Store) library(ctx context.Context, narrow string, args namedArgs) ([]LibraryItem, error) {
	rows, err := s.pool.Query(ctx, readerWorks(narrow)+`
		SELECT `+libraryItemColumns(isNewSQL+" AS is_new", "wm.work_id")+`
		FROM bookmarks b`+workJoin+libraryItemJoins+`
		WHERE b.reader_id = @reader AND (`+narrow+`)
		`+libraryOrder, args)
	if err != nil {
		return nil, fmt.Errorf("store: library: %w", err)
	}
	defer rows.Close()
	out := []LibraryItem{}
	for rows.Next() {
		var it LibraryItem
		if err := rows.Scan(it.dests()...); err != nil {
			return nil, fmt.Errorf("store: library: %w", err)
		}
		out = append(out, it)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: library: %w", err)
	}
	return out, nil
}

// libraryItemColumns is a LibraryItem's columns (read by dests, in this
// order) over bookmark b and libraryItemJoins, with New and the Work id
// from the caller's query.
func libraryItemColumns(isNew, workID string) string {
	return `s.site, s.series_id, s.title, s.url, s.cover_url, (c.site IS NOT NULL), b.created_at, b.added_by,
			coalesce(s.latest_number::text, ''), s.latest_title, s.latest_url, s.latest_seen_at,
			coalesce(p.number::text, ''), coalesce(p.url, ''), p.read_at,
			` + isNew + `, ` + workID + `,
			s.latest_checked_at, f.failing_since, coalesce(f.outcome, ''),
			b.notify_mode, b.notify_pile, b.notify_pile_days,
			coalesce(nx.number::text, ''), coalesce(nx.url, ''),
			` + statusColumnsSQL + `,
			` + clockColumns + `,
			coalesce(b.given_title, '')`
}

// libraryItemJoins joins bookmark b to what libraryItemColumns reads: its
// Series s, the Reader's Progress p, the failure row f, a stored cover c
// the next chapter after Progress whose page a Lane saw (nx) and its
// sightings (clockJoin).
var libraryItemJoins = `
		JOIN series s ON s.site = b.site AND s.series_id = b.series_id
		LEFT JOIN progress p ON p.reader_id = b.reader_id AND p.site = b.site AND p.series_id = b.series_id
		LEFT JOIN poll_failures f ON f.site = b.site AND f.series_id = b.series_id
		LEFT JOIN LATERAL (SELECT site FROM covers c
			WHERE c.site = s.site AND c.series_id = s.series_id) c ON true
		LEFT JOIN LATERAL (SELECT n.number, n.url FROM (
				SELECT e.number, e.url FROM chapter_events e
				WHERE e.site = s.site AND e.series_id = s.series_id AND e.number > p.number AND e.url <> ''
				UNION ALL SELECT s.latest_number, s.latest_url WHERE s.latest_url <> '') n
			WHERE s.latest_number > p.number AND n.number > p.number
			ORDER BY n.number LIMIT 1) nx ON true` + clockJoin + statusJoin

// dests is where Scan puts libraryItemColumns.
func (it *LibraryItem) dests() []any {
	b := &it.Bookmark
	return []any{&b.Site, &b.SeriesID, &b.Title, &b.URL, &b.CoverURL, &b.HasCover, &b.CreatedAt, &b.AddedBy,
		&b.LatestNumber, &b.LatestTitle, &b.LatestURL, &b.LatestSeenAt,
		&b.ProgressNumber, &b.ProgressURL, &b.ProgressReadAt, &b.New, &b.WorkID,
		&it.CheckedAt, &it.FailingSince, &it.FailingOutcome,
		&b.NotifyMode, &b.NotifyPile, &b.NotifyPileDays,
		&it.ContinueNumber, &it.ContinueURL,
		&b.Status, &b.FinalChapter, &b.State,
		&b.Clock.CheckedAt, &b.Clock.ForcePollAt, &b.Clock.Slow, &b.Clock.FailingSince, &b.Clock.Sightings,
		&it.GivenTitle}
}

// markReadSQL is the Progress rule (progressUpsertFrom) over the Series'
// Latest Chapter as the one read ($1 reader, $2 Site, $3 Series id, $4
// read_at): no row when the Reader has no such bookmark; past is ” (not
// written) when no Latest Chapter is known.
var markReadSQL = progressUpsertFrom(`SELECT b.reader_id, b.site, b.series_id, s.latest_number::text, s.latest_url,
			$4::timestamptz, 1::bigint
		FROM bookmarks b JOIN series s ON s.site = b.site AND s.series_id = b.series_id
		WHERE b.reader_id = $1 AND b.site = $2 AND b.series_id = $3`, `CASE WHEN u.number IS NULL THEN '' END`, "reader")

// MarkRead sets a Reader's Progress on a bookmarked Series to its Latest
// Chapter, read at `at`, through the Progress rule every read takes
// (markReadSQL), so it only moves Progress forward. It reports whether
// Progress moved; a Series with no Latest Chapter known moves nothing. A
// bookmark the Reader does not have is ErrNotFound (and is not created,
// unlike a read from the userscript).
func (s *Store) MarkRead(ctx context.Context, readerID int64, site, seriesID string, at time.Time) (bool, error) {
	var found, moved bool
	var past *string
	err := s.pool.QueryRow(ctx, markReadSQL, readerID, site, seriesID, at).Scan(&found, &moved, &past)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, ErrNotFound
	}
	if err != nil {
		return false, fmt.Errorf("store: mark read: %w", err)
	}
	return moved, nil
}
