package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Unlinks per Reader (docs/adr/0021-works-link-by-ids.md, "Unlinks per
// Reader"): a Reader's "not this story" takes a shared member out of the
// Work in that Reader's library only (work_reader_unlinks, read through
// readerInWorkSQL in works_numbers.go): their view, numbers and notices.
// The shared unlink (work_unlinks) takes it out for everyone, and ids
// never link it back to that Work (link_by_id reads only it): the Owner
// makes it (UnlinkShared), or two Readers who unlink the same member of
// the same Work.

// Unlinked says what UnlinkMember did.
type Unlinked int

const (
	// UnlinkedMine means the member left the Work in the Reader's library
	// only (or the Reader's own hand link went).
	UnlinkedMine Unlinked = iota
	// UnlinkedShared means another Reader had unlinked the same member, so
	// it left the Work for everyone.
	UnlinkedShared
)

// unlinkMineSQL records Reader $1's unlink of the shared member ($3, $4)
// of Work $2 while it is in that Work for them, and answers how many
// Readers have unlinked it now (0: not theirs to unlink).
var unlinkMineSQL = `
	WITH m AS (
		SELECT 1 FROM work_members m WHERE m.work_id = $2 AND m.site = $3 AND m.series_id = $4
			AND NOT EXISTS (SELECT 1 FROM work_hand_links x WHERE x.reader_id = $1 AND x.site = $3 AND x.series_id = $4)
			AND ` + readerInWorkSQL("$1::bigint", "m.work_id", "m.site", "m.series_id") + `
	), u AS (
		INSERT INTO work_reader_unlinks (reader_id, work_id, site, series_id)
		SELECT $1, $2, $3, $4 FROM m ON CONFLICT DO NOTHING RETURNING reader_id
	)
	SELECT CASE WHEN EXISTS (SELECT 1 FROM u) THEN 1 + (SELECT count(DISTINCT reader_id) FROM work_reader_unlinks
		WHERE work_id = $2 AND site = $3 AND series_id = $4 AND reader_id <> $1) ELSE 0 END`

// mineNoticesSQL makes Reader $1's owed notices of Work $2 the Series'
// own where the Work no longer holds their Series for them: those of the
// member they unlinked ($3, $4), and all of them when their unlinks left
// the Work under two members for them (readerWorkThinSQL).
var mineNoticesSQL = `UPDATE reader_notices SET work_id = NULL, work_number = NULL
	WHERE reader_id = $1 AND work_id = $2 AND done_at IS NULL
		AND ((site = $3 AND series_id = $4) OR ` + readerWorkThinSQL("$1::bigint", "$2::bigint") + `)`

// UnlinkMember takes a Series out of a Work for the Reader. A shared
// member leaves the Work in that Reader's library only
// (work_reader_unlinks): every other Reader keeps it, and ids still link
// it. When a second Reader unlinks the same member of the same Work, it
// leaves the Work for everyone (UnlinkedShared), as the Owner's
// UnlinkShared does. A member the Reader holds by their own hand link, not
// yet confirmed (Pending), loses that link only: other Readers' hand
// links stay, and no unlink is recorded (the link was this Reader's word
// alone). ErrNotFound when the Series is neither, for this Reader.
func (s *Store) UnlinkMember(ctx context.Context, readerID, workID int64, site, seriesID string) (Unlinked, error) {
	var how Unlinked
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, worksLockSQL); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, unlinkMineSQL, readerID, workID, site, seriesID).Scan(&n); err != nil {
			return err
		}
		switch {
		case n >= 2:
			how = UnlinkedShared
			return unlinkShared(ctx, tx, workID, site, seriesID, readerID)
		case n == 1:
			_, err := tx.Exec(ctx, mineNoticesSQL, readerID, workID, site, seriesID)
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM work_hand_links
			WHERE reader_id = $1 AND work_id = $2 AND site = $3 AND series_id = $4`, readerID, workID, site, seriesID)
		if err == nil && tag.RowsAffected() == 0 {
			return ErrNotFound
		}
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return how, ErrNotFound
	}
	if err != nil {
		return how, fmt.Errorf("store: unlink member: %w", err)
	}
	return how, nil
}

// UnlinkShared takes a shared member out of a Work for every Reader (the
// Owner's act, DELETE /api/admin/works/…): ids never link it to this Work
// again (work_unlinks), and the Readers' own unlinks of it go with it. A
// Work left with one member is dissolved (dissolve_work). ErrNotFound when
// the Series is no shared member of the Work.
func (s *Store) UnlinkShared(ctx context.Context, workID int64, site, seriesID string) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, worksLockSQL); err != nil {
			return err
		}
		return unlinkShared(ctx, tx, workID, site, seriesID, 0)
	})
	if errors.Is(err, ErrNotFound) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("store: unlink shared member: %w", err)
	}
	return nil
}

// unlinkShared is the shared unlink inside tx, under the works lock; by
// is the second Reader who unlinked it (0: the Owner). The member's owed
// notices are its Series' own from now on.
func unlinkShared(ctx context.Context, tx pgx.Tx, workID int64, site, seriesID string, by int64) error {
	var gone bool
	err := tx.QueryRow(ctx, `
		WITH m AS (
			DELETE FROM work_members WHERE work_id = $1 AND site = $2 AND series_id = $3 RETURNING 1
		), u AS (
			INSERT INTO work_unlinks (work_id, site, series_id, reader_id)
			SELECT $1, $2, $3, nullif($4::bigint, 0) FROM m ON CONFLICT DO NOTHING
		), r AS (
			DELETE FROM work_reader_unlinks WHERE work_id = $1 AND site = $2 AND series_id = $3 AND EXISTS (SELECT 1 FROM m)
		), n AS (
			UPDATE reader_notices SET work_id = NULL, work_number = NULL
			WHERE work_id = $1 AND site = $2 AND series_id = $3 AND done_at IS NULL AND EXISTS (SELECT 1 FROM m)
		)
		SELECT EXISTS (SELECT 1 FROM m)`, workID, site, seriesID, by).Scan(&gone)
	if err != nil {
		return fmt.Errorf("shared unlink: %w", err)
	}
	if !gone {
		return ErrNotFound
	}
	return nil
}

// liftUnlinksSQL lifts Reader $1's own unlinks where their hand link says
// again that two Series ($2, $3 and $4, $5) are one story and both are
// shared members of one Work: the Work holds both for them again. It
// answers the Work (none when nothing was lifted).
const liftUnlinksSQL = `
	WITH w AS (
		SELECT a.work_id FROM work_members a JOIN work_members b ON b.work_id = a.work_id
		WHERE a.site = $2 AND a.series_id = $3 AND b.site = $4 AND b.series_id = $5
	)
	DELETE FROM work_reader_unlinks u USING w
	WHERE u.reader_id = $1 AND u.work_id = w.work_id AND (u.site, u.series_id) IN (($2, $3), ($4, $5))
	RETURNING u.work_id`
