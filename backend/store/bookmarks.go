package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"mangabookmark/backend/safetext"
)

// Bookmark is one Reader's bookmark joined with its Series, the Reader's
// Progress and whether a cover image is stored.
type Bookmark struct {
	Site      string
	SeriesID  string
	Title     string
	URL       string
	CoverURL  string // the Site's cover URL as last read ("" when unknown)
	HasCover  bool   // a cover image is stored in the covers table
	CreatedAt time.Time
	// AddedBy is "read" for a bookmark a reported read created, "reader"
	// for one the Reader added (the API or the library page).
	AddedBy string

	LatestNumber string // "" when no Latest Chapter is known
	LatestTitle  string
	LatestURL    string
	LatestSeenAt *time.Time

	ProgressNumber string // "" when the Reader has no Progress here
	ProgressURL    string
	ProgressReadAt *time.Time

	// New is the New Chapter signal: a Latest Chapter is known, the Reader
	// has Progress, and the Latest Chapter's number is greater (compared as
	// numeric in SQL). A bookmark with no Progress is not New: nothing has
	// been read that a chapter could be new relative to. For a member of a
	// Work both are the Work's (works_numbers.go): a read on any member
	// ends New on every member.
	New bool
	// WorkID is the Work the Series is a member of; nil when none.
	WorkID *int64

	// The bookmark's notify mode (each, off, pile) and its pile thresholds.
	NotifyMode     string
	NotifyPile     int
	NotifyPileDays int

	// Clock is what the bookmark's time line is worked out from
	// (timeline.go): the Series' own reads, sightings and failure.
	Clock Clock

	// Status is the story's publication status (the Work's for a shared
	// member, else the Series'; "unknown" when never said) and
	// FinalChapter its final chapter ("" when none is known), in the
	// Series' own numbers (status.go). State is the Reader's reading state
	// (reading_states.go, readingStateSQL).
	Status       string
	FinalChapter string
	State        string
}

// bookmarkSelect is the query of Reader @reader's bookmarks matching where (a
// condition on bookmarks b), each joined with its Series, Progress and
// Work (readerWorks, workJoin); the caller adds the order. Each Series'
// sightings (Clock) come from one aggregate over all the bookmarks'
// Chapter Events (sg), not a query a bookmark: at 2,000 bookmarks and
// 20,000 events a LATERAL a row cost more, and its estimate pushed the
// plan past PostgreSQL's JIT threshold, whose compiling cost more again.
// The aggregate keys each Series by a number (bk.k) so its sort compares
// integers, not text under the database's collation (loneSightingsSQL).
func bookmarkSelect(where string) string {
	return readerWorks(where) + `, bk AS (
		SELECT b.site, b.series_id, row_number() OVER () AS k FROM bookmarks b WHERE b.reader_id = @reader AND (` + where + `)
	), sg AS (
		SELECT bk.site, bk.series_id, x.sightings
		FROM (` + loneSightingsSQL(`SELECT k, site, series_id FROM bk`) + `) x JOIN bk ON bk.k = x.k
	)
	SELECT s.site, s.series_id, s.title, s.url, s.cover_url,
		EXISTS (SELECT 1 FROM covers c WHERE c.site = s.site AND c.series_id = s.series_id),
		b.created_at, b.added_by,
		coalesce(s.latest_number::text, ''), s.latest_title, s.latest_url, s.latest_seen_at,
		coalesce(p.number::text, ''), coalesce(p.url, ''), p.read_at,
		` + isNewSQL + `, wm.work_id,
		b.notify_mode, b.notify_pile, b.notify_pile_days,
		` + statusColumnsSQL + `,
		` + clockColumns + `
	FROM bookmarks b
	JOIN series s ON s.site = b.site AND s.series_id = b.series_id
	LEFT JOIN progress p ON p.reader_id = b.reader_id AND p.site = b.site AND p.series_id = b.series_id
	LEFT JOIN poll_failures f ON f.site = b.site AND f.series_id = b.series_id
	LEFT JOIN sg ON sg.site = b.site AND sg.series_id = b.series_id` + workJoin + statusJoin + `
	WHERE b.reader_id = @reader AND (` + where + `)`
}

// scanBookmark reads one row of bookmarkSelect.
func scanBookmark(row scanner) (Bookmark, error) {
	var b Bookmark
	err := row.Scan(&b.Site, &b.SeriesID, &b.Title, &b.URL, &b.CoverURL, &b.HasCover, &b.CreatedAt, &b.AddedBy,
		&b.LatestNumber, &b.LatestTitle, &b.LatestURL, &b.LatestSeenAt,
		&b.ProgressNumber, &b.ProgressURL, &b.ProgressReadAt, &b.New, &b.WorkID,
		&b.NotifyMode, &b.NotifyPile, &b.NotifyPileDays,
		&b.Status, &b.FinalChapter, &b.State,
		&b.Clock.CheckedAt, &b.Clock.ForcePollAt, &b.Clock.Slow, &b.Clock.FailingSince, &b.Clock.Sightings)
	return b, err
}

// ListBookmarks returns a Reader's bookmarks, most recently added first.
func (s *Store) ListBookmarks(ctx context.Context, readerID int64) ([]Bookmark, error) {
	rows, err := s.pool.Query(ctx, bookmarkSelect("true")+` ORDER BY b.created_at DESC, s.site, s.series_id`,
		namedArgs{"reader": readerID})
	if err != nil {
		return nil, fmt.Errorf("store: list bookmarks: %w", err)
	}
	defer rows.Close()
	out := []Bookmark{}
	for rows.Next() {
		b, err := scanBookmark(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list bookmarks: %w", err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list bookmarks: %w", err)
	}
	return out, nil
}

// GetBookmark returns one of a Reader's bookmarks, or ErrNotFound.
func (s *Store) GetBookmark(ctx context.Context, readerID int64, site, seriesID string) (Bookmark, error) {
	b, err := scanBookmark(s.pool.QueryRow(ctx, bookmarkSelect("b.site = @site AND b.series_id = @series_id"),
		namedArgs{"reader": readerID, "site": site, "series_id": seriesID}))
	if err != nil {
		return Bookmark{}, notFound("get bookmark", err)
	}
	return b, nil
}

// AddBookmark bookmarks a Series for a Reader, creating the Series (with
// its canonical URL, attributed to the Reader) when it is not known yet. It
// reports whether the bookmark is new; adding an existing bookmark changes
// nothing. It applies no limits: it is for trusted callers (the demo's and
// the tests' seeding). A Reader's own request goes through
// AddReaderBookmark.
func (s *Store) AddBookmark(ctx context.Context, readerID int64, site, seriesID, seriesURL string) (bool, error) {
	// One statement: the foreign key check of the bookmark runs at its end
	// and sees the Series row the first CTE inserted.
	const q = `
		WITH s AS (
			INSERT INTO series (site, series_id, url, created_by) VALUES ($2, $3, $4, $1)
			ON CONFLICT (site, series_id) DO NOTHING
		)
		INSERT INTO bookmarks (reader_id, site, series_id) VALUES ($1, $2, $3)
		ON CONFLICT (reader_id, site, series_id) DO NOTHING`
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var tag pgconn.CommandTag
		tag, err = s.pool.Exec(ctx, q, readerID, site, seriesID, safetext.URL(seriesURL))
		if err == nil {
			return tag.RowsAffected() == 1, nil
		}
		// The Series was removed as an orphan between our look and our
		// insert (another Reader dropped its last bookmark): try again.
		if !isRetryable(err) {
			break
		}
	}
	return false, fmt.Errorf("store: add bookmark: %w", err)
}

// AddReaderBookmark is AddBookmark for a Reader's own request: a new
// bookmark past the Reader's limits (ReaderLimits) is refused with
// ErrBookmarkLimit or ErrNewSeriesLimit and writes nothing.
func (s *Store) AddReaderBookmark(ctx context.Context, readerID int64, site, seriesID, seriesURL string) (bool, error) {
	want := []wantedBookmark{{Site: site, SeriesID: seriesID, URL: seriesURL}}
	var adm []admission
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			var err error
			adm, err = s.admitBookmarks(ctx, tx, readerID, addedByReader, want)
			if err != nil || adm[0].Refused != nil || adm[0].Created {
				return err
			}
			// Re-adding a bookmark a read created makes it the Reader's own.
			_, err = tx.Exec(ctx, `UPDATE bookmarks SET added_by = 'reader'
				WHERE reader_id = $1 AND site = $2 AND series_id = $3 AND added_by <> 'reader'`, readerID, site, seriesID)
			return err
		})
		if err == nil || !isRetryable(err) {
			break
		}
	}
	if err != nil {
		return false, fmt.Errorf("store: add bookmark: %w", err)
	}
	if adm[0].Refused != nil {
		return false, adm[0].Refused
	}
	return adm[0].Created, nil
}

// RemoveBookmark deletes a Reader's bookmark (its Progress goes with it)
// and, in the same statement, the Series when no other Reader bookmarks it
// (orphan removal), nor a Remove's Undo holds it (bookmark_undo.go: the
// hold's end deletes it then). An absent bookmark is ErrNotFound.
//
// The statement runs after the Series row is locked FOR UPDATE, in one
// transaction: a concurrent add or read of the same Series either finished
// before the lock (and its bookmark is seen, so the Series stays) or waits
// on the lock in its foreign key check and, finding the Series gone,
// retries and recreates it. Without the lock a bookmark added at the same
// moment could be cascaded away with the "orphan".
func (s *Store) RemoveBookmark(ctx context.Context, readerID int64, site, seriesID string) error {
	var removed bool
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SELECT 1 FROM series WHERE site = $1 AND series_id = $2 FOR UPDATE`, site, seriesID); err != nil {
				return err
			}
			return tx.QueryRow(ctx, `
				WITH b AS (
					DELETE FROM bookmarks WHERE reader_id = $1 AND site = $2 AND series_id = $3
					RETURNING site, series_id
				), orphan AS (
					DELETE FROM series s USING b
					WHERE s.site = b.site AND s.series_id = b.series_id
					  AND NOT EXISTS (SELECT 1 FROM bookmarks o
						WHERE o.site = b.site AND o.series_id = b.series_id AND o.reader_id <> $1)
					  AND NOT EXISTS (SELECT 1 FROM bookmark_undo_items u
						WHERE u.site = b.site AND u.series_id = b.series_id)
				)
				SELECT EXISTS (SELECT 1 FROM b)`, readerID, site, seriesID).Scan(&removed)
		})
		if err == nil || !isRetryable(err) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("store: remove bookmark: %w", err)
	}
	if !removed {
		return ErrNotFound
	}
	return nil
}

// isRetryable reports errors a concurrent writer of the same Series can
// cause, after which the idempotent statement is simply run again: a
// foreign key violation (the Series was removed as an orphan meanwhile) or
// a deadlock.
func isRetryable(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && (pg.Code == "23503" || pg.Code == "40P01")
}
