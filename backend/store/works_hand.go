package store

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
)

// A Reader's hand link (docs/adr/0021-works-link-by-ids.md): two Series the
// Reader says are one story are one Work in that Reader's library only
// (work_hand_links), until a second Reader links the same Series to the
// same Work; it is then a shared member (linked_by 'reader') for everyone.

// SeriesRef names one Series.
type SeriesRef struct {
	Site     string
	SeriesID string
}

// LinkByHand links a and b for the Reader and returns the Work: the Work
// either already is in for the Reader (the other joins it), else a Work
// another Reader made of the same two by hand (which confirms it), else a
// new one. ErrNotFound when either Series is unknown or the Reader
// bookmarks neither; a *WorkFullError (ErrWorkFull) when the Work, as the
// Reader sees it, holds another Series on the joining one's Site.
func (s *Store) LinkByHand(ctx context.Context, readerID int64, a, b SeriesRef) (int64, error) {
	var work int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, worksLockSQL); err != nil {
			return err
		}
		var err error
		work, err = linkByHandTx(ctx, tx, readerID, a, b, true)
		return err
	})
	var full *WorkFullError
	if errors.As(err, &full) {
		return 0, full
	}
	if err != nil {
		return 0, notFound("link by hand", err)
	}
	return work, nil
}

// linkByHandTx is LinkByHand inside tx, under the works lock. It checks
// the bound before it writes, so a refusal leaves tx usable. A Reader's
// own unlink of a or b from the Work it joins is lifted when lift (the
// Reader says by hand that this is the story again); a Reader's id (not
// lift) never undoes their unlink: the link is not made (ErrNotFound).
func linkByHandTx(ctx context.Context, tx pgx.Tx, readerID int64, a, b SeriesRef, lift bool) (int64, error) {
	var work int64
	var ok bool
	var ea, eb *int64
	if lift {
		// Both shared members of one Work: the Work holds both for the
		// Reader again (their unlinks go), before it is looked up.
		rows, err := tx.Query(ctx, liftUnlinksSQL, readerID, a.Site, a.SeriesID, b.Site, b.SeriesID)
		if err != nil {
			return 0, err
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return 0, err
		}
	} else {
		var unlinked bool
		// Either one unlinked by the Reader from a Work the other is in.
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM work_reader_unlinks u
				JOIN work_members o ON o.work_id = u.work_id
			WHERE u.reader_id = $1 AND ((u.site, u.series_id, o.site, o.series_id) = ($2, $3, $4, $5)
				OR (u.site, u.series_id, o.site, o.series_id) = ($4, $5, $2, $3)))`,
			readerID, a.Site, a.SeriesID, b.Site, b.SeriesID).Scan(&unlinked); err != nil {
			return 0, err
		}
		if unlinked {
			return 0, ErrNotFound
		}
	}
	err := tx.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM series WHERE (site, series_id) IN ((@a_site, @a_id), (@b_site, @b_id))) = 2
			AND EXISTS (SELECT 1 FROM bookmarks WHERE reader_id = @reader AND (site, series_id) IN ((@a_site, @a_id), (@b_site, @b_id))),
		`+seriesWorkOf("@a_site", "@a_id")+`, `+seriesWorkOf("@b_site", "@b_id"),
		namedArgs{"reader": readerID, "a_site": a.Site, "a_id": a.SeriesID, "b_site": b.Site, "b_id": b.SeriesID}).
		Scan(&ok, &ea, &eb)
	if err != nil {
		return 0, err
	}
	if !ok || a == b {
		return 0, ErrNotFound
	}
	var join []SeriesRef
	switch {
	case ea != nil && eb != nil && *ea == *eb:
		return *ea, nil
	case ea != nil:
		work, join = *ea, []SeriesRef{b}
	case eb != nil:
		work, join = *eb, []SeriesRef{a}
	default:
		if a.Site == b.Site {
			return 0, &WorkFullError{Site: a.Site}
		}
		join = []SeriesRef{a, b}
		err := tx.QueryRow(ctx, `SELECT coalesce((SELECT h1.work_id FROM work_hand_links h1
			JOIN work_hand_links h2 ON h2.work_id = h1.work_id AND h2.reader_id = h1.reader_id
			WHERE h1.site = $1 AND h1.series_id = $2 AND h2.site = $3 AND h2.series_id = $4 LIMIT 1), 0)`,
			a.Site, a.SeriesID, b.Site, b.SeriesID).Scan(&work)
		if err != nil {
			return 0, err
		}
	}
	if work != 0 {
		for _, x := range join {
			if err := checkSiteFree(ctx, tx, readerID, work, x); err != nil {
				return 0, err
			}
		}
	} else if err := tx.QueryRow(ctx, `INSERT INTO works DEFAULT VALUES RETURNING id`).Scan(&work); err != nil {
		return 0, err
	}
	for _, x := range join {
		if _, err := tx.Exec(ctx, confirmHandLinkSQL, readerID, work, x.Site, x.SeriesID); err != nil {
			return 0, err
		}
		// Confirmed: this Reader's own hand link is the shared member now,
		// and their own unlink of it from this Work is lifted.
		if _, err := tx.Exec(ctx, `DELETE FROM work_hand_links h WHERE reader_id = $1 AND site = $2 AND series_id = $3
			AND EXISTS (SELECT 1 FROM work_members m WHERE m.site = h.site AND m.series_id = h.series_id AND m.work_id = h.work_id)`,
			readerID, x.Site, x.SeriesID); err != nil {
			return 0, err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM work_reader_unlinks WHERE reader_id = $1 AND work_id = $2 AND site = $3 AND series_id = $4`,
			readerID, work, x.Site, x.SeriesID); err != nil {
			return 0, err
		}
	}
	_, err = tx.Exec(ctx, collapseOwedSQL, namedArgs{"work": work})
	return work, err
}

// confirmHandLinkSQL records the Reader's hand link of one Series to a
// Work; when a second Reader holds the same link, the Series becomes a
// shared member (leaving any other Work, and lifting an unlink from this
// one: two Readers said so) and the hand links of it go; it stays a hand
// link while the Work holds another shared member on its Site (a Work
// holds one member per Site).
const confirmHandLinkSQL = `
	WITH h AS (
		INSERT INTO work_hand_links (reader_id, work_id, site, series_id) VALUES ($1, $2, $3, $4)
		ON CONFLICT (reader_id, site, series_id) DO UPDATE SET work_id = excluded.work_id, created_at = now()
	), two AS (
		SELECT 1 WHERE (SELECT count(DISTINCT reader_id) FROM work_hand_links
			WHERE work_id = $2 AND site = $3 AND series_id = $4 AND reader_id <> $1) >= 1
			AND NOT EXISTS (SELECT 1 FROM work_members WHERE work_id = $2 AND site = $3 AND series_id <> $4)
	), m AS (
		INSERT INTO work_members (site, series_id, work_id, linked_by) SELECT $3, $4, $2, 'reader' FROM two
		ON CONFLICT (site, series_id) DO UPDATE SET work_id = excluded.work_id, linked_by = 'reader', "offset" = 0, drift_since = NULL
	), u AS (
		DELETE FROM work_unlinks WHERE work_id = $2 AND site = $3 AND series_id = $4 AND EXISTS (SELECT 1 FROM two)
	)
	DELETE FROM work_hand_links WHERE work_id = $2 AND site = $3 AND series_id = $4 AND reader_id <> $1
		AND EXISTS (SELECT 1 FROM two)`

// collapseOwedSQL keeps one owed notice per Reader and number (in Work
// numbers) over Work @work's members as each Reader sees them
// (readerMembersSQL, for each Reader owed a notice on one of them): two
// Series a Reader links by hand may each already owe the same number, told
// once from now on like any Work's. A number told already (sent, caught
// up) drops the owed one; else the first seen stays.
var collapseOwedSQL = `
	WITH owed AS (
		SELECT DISTINCT n.reader_id FROM reader_notices n
		WHERE n.done_at IS NULL AND (n.site, n.series_id) IN (SELECT site, series_id FROM work_members WHERE work_id = @work
			UNION SELECT site, series_id FROM work_hand_links WHERE work_id = @work)
	), mem AS (
		SELECT o.reader_id, x.site, x.series_id, x.off FROM owed o
		CROSS JOIN LATERAL (` + readerMembersSQL("o.reader_id", "= @work") + `) x
	), ranked AS (
		SELECT n.reader_id, n.site, n.series_id, n.number, n.done_at,
			row_number() OVER (PARTITION BY n.reader_id, n.number + mem.off
				ORDER BY n.done_at IS NULL, n.seen_at, n.site, n.series_id) AS k
		FROM reader_notices n
		JOIN mem ON mem.reader_id = n.reader_id AND mem.site = n.site AND mem.series_id = n.series_id
	)
	DELETE FROM reader_notices n USING ranked r
	WHERE r.k > 1 AND r.done_at IS NULL AND n.reader_id = r.reader_id AND n.site = r.site
		AND n.series_id = r.series_id AND n.number = r.number AND n.done_at IS NULL`
