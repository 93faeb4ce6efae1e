package store

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// UndoKeep is how long a Remove's Undo holds (docs/adr/0033-undo-of-remove.md):
// long enough to notice a wrong tap, short enough that a removed Series
// nobody else bookmarks does not linger.
const UndoKeep = 10 * time.Minute

// MaxRemoveAtOnce bounds one Remove of several bookmarks (a page holds
// sixty cards; a Work a handful of members each).
const MaxRemoveAtOnce = 500

// ErrUndoGone is an Undo whose hold is not there: never made, replaced by
// a later Remove, already undone, or another Reader's.
var ErrUndoGone = errors.New("store: nothing to undo")

// ErrUndoExpired is an Undo past its hold's UndoKeep.
var ErrUndoExpired = errors.New("store: undo expired")

// BookmarkKey names one bookmark of a Reader.
type BookmarkKey struct{ Site, SeriesID string }

// RemoveBookmarksHeld removes the Reader's bookmarks of keys (their
// Progress goes with them) in one transaction and holds what Undo puts
// back until expires: it answers the hold's token. Every key must be a
// bookmark of the Reader's, else nothing changes and the answer is
// ErrNotFound. The Reader's previous hold ends first (its Series nobody
// bookmarks go), and so does every hold past its time.
func (s *Store) RemoveBookmarksHeld(ctx context.Context, readerID int64, keys []BookmarkKey, now, expires time.Time) (string, error) {
	keys = sortedKeys(keys)
	if len(keys) == 0 || len(keys) > MaxRemoveAtOnce {
		return "", ErrNotFound
	}
	token, err := undoToken()
	if err != nil {
		return "", err
	}
	sites, ids := make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		sites[i], ids[i] = k.Site, k.SeriesID
	}
	for attempt := 0; attempt < 3; attempt++ {
		err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			if err := releaseHolds(ctx, tx, readerID, now); err != nil {
				return err
			}
			// The Series rows first, in one order, as RemoveBookmark does:
			// a concurrent Remove of the same Series waits here.
			if _, err := tx.Exec(ctx, `SELECT 1 FROM series WHERE (site, series_id) IN
				(SELECT * FROM unnest($1::text[], $2::text[])) ORDER BY site, series_id FOR UPDATE`, sites, ids); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO bookmark_undo (reader_id, token, expires_at) VALUES ($1, $2, $3)`,
				readerID, token, expires); err != nil {
				return err
			}
			tag, err := tx.Exec(ctx, `
				INSERT INTO bookmark_undo_items (reader_id, site, series_id, created_at, notify_mode, notify_pile,
					notify_pile_days, added_by, state, state_by_hand, state_at, given_title,
					progress_number, progress_url, progress_read_at, progress_updated_at, progress_source)
				SELECT b.reader_id, b.site, b.series_id, b.created_at, b.notify_mode, b.notify_pile,
					b.notify_pile_days, b.added_by, b.state, b.state_by_hand, b.state_at, b.given_title,
					p.number, coalesce(p.url, ''), p.read_at, p.updated_at, coalesce(p.source, 'reader')
				FROM bookmarks b
				LEFT JOIN progress p ON p.reader_id = b.reader_id AND p.site = b.site AND p.series_id = b.series_id
				WHERE b.reader_id = $1 AND (b.site, b.series_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
				readerID, sites, ids)
			if err != nil {
				return err
			}
			if int(tag.RowsAffected()) != len(keys) {
				return ErrNotFound
			}
			_, err = tx.Exec(ctx, `DELETE FROM bookmarks WHERE reader_id = $1
				AND (site, series_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`, readerID, sites, ids)
			return err
		})
		if err == nil || !isRetryable(err) {
			break
		}
	}
	if errors.Is(err, ErrNotFound) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("store: remove bookmarks: %w", err)
	}
	return token, nil
}

// UndoRemove puts back what the Reader's hold named token keeps: each
// bookmark with its notice mode, reading state and Progress as they were
// (a bookmark a read made again meanwhile takes the held settings and
// keeps the higher Progress), and ends the hold. It answers the keys put
// back. ErrUndoGone when the Reader holds no such token (another
// Reader's, replaced, or already undone); ErrUndoExpired past its time.
func (s *Store) UndoRemove(ctx context.Context, readerID int64, token string, now time.Time) ([]BookmarkKey, error) {
	var out []BookmarkKey
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		out, err = s.undoRemove(ctx, readerID, token, now)
		if err == nil || !isRetryable(err) {
			break
		}
	}
	if errors.Is(err, ErrUndoGone) || errors.Is(err, ErrUndoExpired) {
		if errors.Is(err, ErrUndoExpired) {
			if perr := s.ReleaseExpiredHolds(ctx, now); perr != nil {
				return nil, perr
			}
		}
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("store: undo remove: %w", err)
	}
	return out, nil
}

// undoRemove is UndoRemove's transaction.
func (s *Store) undoRemove(ctx context.Context, readerID int64, token string, now time.Time) ([]BookmarkKey, error) {
	var out []BookmarkKey
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var held string
		var expires time.Time
		err := tx.QueryRow(ctx, `SELECT token, expires_at FROM bookmark_undo WHERE reader_id = $1 FOR UPDATE`,
			readerID).Scan(&held, &expires)
		if errors.Is(err, pgx.ErrNoRows) || (err == nil && (token == "" || held != token)) {
			return ErrUndoGone
		}
		if err != nil {
			return err
		}
		if !now.Before(expires) {
			return ErrUndoExpired
		}
		rows, err := tx.Query(ctx, `
			WITH i AS (
				SELECT * FROM bookmark_undo_items WHERE reader_id = $1
			), b AS (
				INSERT INTO bookmarks (reader_id, site, series_id, created_at, notify_mode, notify_pile,
					notify_pile_days, added_by, state, state_by_hand, state_at, given_title)
				SELECT reader_id, site, series_id, created_at, notify_mode, notify_pile,
					notify_pile_days, added_by, state, state_by_hand, state_at, given_title FROM i
				ON CONFLICT (reader_id, site, series_id) DO UPDATE SET created_at = EXCLUDED.created_at,
					notify_mode = EXCLUDED.notify_mode, notify_pile = EXCLUDED.notify_pile,
					notify_pile_days = EXCLUDED.notify_pile_days, added_by = EXCLUDED.added_by,
					state = EXCLUDED.state, state_by_hand = EXCLUDED.state_by_hand, state_at = EXCLUDED.state_at,
					given_title = EXCLUDED.given_title
				RETURNING site, series_id
			)
			SELECT site, series_id FROM b ORDER BY site, series_id`, readerID)
		if err != nil {
			return err
		}
		for rows.Next() {
			var k BookmarkKey
			if err := rows.Scan(&k.Site, &k.SeriesID); err != nil {
				rows.Close()
				return err
			}
			out = append(out, k)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		// Progress after the bookmarks it references are back.
		if _, err := tx.Exec(ctx, `
			INSERT INTO progress (reader_id, site, series_id, number, url, read_at, updated_at, source)
			SELECT reader_id, site, series_id, progress_number, progress_url, progress_read_at,
				progress_updated_at, progress_source
			FROM bookmark_undo_items WHERE reader_id = $1 AND progress_number IS NOT NULL
			ON CONFLICT (reader_id, site, series_id) DO UPDATE SET number = EXCLUDED.number, url = EXCLUDED.url,
				read_at = EXCLUDED.read_at, updated_at = EXCLUDED.updated_at, source = EXCLUDED.source
			WHERE progress.number < EXCLUDED.number`, readerID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM bookmark_undo WHERE reader_id = $1`, readerID)
		return err
	})
	return out, err
}

// ReleaseExpiredHolds ends every hold past its time: its Series that no
// Reader bookmarks and no other hold keeps are deleted, as Remove deletes
// them without a hold.
func (s *Store) ReleaseExpiredHolds(ctx context.Context, now time.Time) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		return releaseHolds(ctx, tx, 0, now)
	})
	if err != nil {
		return fmt.Errorf("store: release undo holds: %w", err)
	}
	return nil
}

// releaseHolds ends Reader readerID's hold (0: none) and every hold past
// now, and deletes their Series left with no bookmark and no other hold.
func releaseHolds(ctx context.Context, tx pgx.Tx, readerID int64, now time.Time) error {
	const where = `reader_id = $1 OR expires_at <= $2`
	// Their Series first, in one order: a Remove of the last other
	// bookmark of one waits, then sees this hold gone and deletes it.
	if _, err := tx.Exec(ctx, `SELECT 1 FROM series WHERE (site, series_id) IN
		(SELECT site, series_id FROM bookmark_undo_items WHERE reader_id IN
			(SELECT reader_id FROM bookmark_undo WHERE `+where+`))
		ORDER BY site, series_id FOR UPDATE`, readerID, now); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `
		WITH gone AS (
			DELETE FROM bookmark_undo WHERE `+where+` RETURNING reader_id
		), items AS (
			DELETE FROM bookmark_undo_items i USING gone WHERE i.reader_id = gone.reader_id
			RETURNING i.reader_id, i.site, i.series_id
		)
		DELETE FROM series s USING (SELECT DISTINCT site, series_id FROM items) x
		WHERE s.site = x.site AND s.series_id = x.series_id
		  AND NOT EXISTS (SELECT 1 FROM bookmarks b WHERE b.site = x.site AND b.series_id = x.series_id)
		  AND NOT EXISTS (SELECT 1 FROM bookmark_undo_items o WHERE o.site = x.site AND o.series_id = x.series_id
			AND o.reader_id NOT IN (SELECT reader_id FROM gone))`, readerID, now)
	return err
}

// sortedKeys is keys without repeats, in (site, series_id) order.
func sortedKeys(keys []BookmarkKey) []BookmarkKey {
	out := slices.Clone(keys)
	slices.SortFunc(out, func(a, b BookmarkKey) int {
		if c := strings.Compare(a.Site, b.Site); c != 0 {
			return c
		}
		return strings.Compare(a.SeriesID, b.SeriesID)
	})
	return slices.Compact(out)
}

// undoToken is a hold's random name.
func undoToken() (string, error) {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("store: undo token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}
