package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// A member's offset is per Reader (docs/adr/0021-works-link-by-ids.md,
// "Offsets per Reader"): a Reader's own offset (work_reader_offsets)
// changes only that Reader's Work numbers, view and notices, and every
// statement reads it through readerOffSQL (works_numbers.go). The shared
// offset (work_members."offset") is what a Reader without their own sees;
// the Owner sets it, or two Readers who set the same value on the same
// member.

// MemberOffsetSet says what SetMemberOffset did.
type MemberOffsetSet int

const (
	// OffsetMine means the Reader's own offset, seen by them alone.
	OffsetMine MemberOffsetSet = iota
	// OffsetShared means another Reader had set the same value on the member,
	// so it became the shared offset, for every Reader without their own.
	OffsetShared
)

// memberForUpdateSQL locks a shared member of a Work and reads its shared
// offset: offsets of one member are set one at a time, so two Readers who
// agree at once make it shared once.
const memberForUpdateSQL = `SELECT "offset"::text FROM work_members
	WHERE work_id = $1 AND site = $2 AND series_id = $3 FOR UPDATE`

// SetMemberOffset sets Reader readerID's own offset on a shared member of
// the Work. The same value as the shared one removes the Reader's own;
// the same value as another Reader's own on the member (in this Work)
// makes it the shared offset and removes the Readers' own rows of that
// value (two Readers agreeing). ErrNotFound when the Series is no shared
// member of the Work. offset is ParseOffset's.
func (s *Store) SetMemberOffset(ctx context.Context, readerID, workID int64, site, seriesID, offset string) (MemberOffsetSet, error) {
	set := OffsetMine
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var shared string
		if err := tx.QueryRow(ctx, memberForUpdateSQL, workID, site, seriesID).Scan(&shared); err != nil {
			return err
		}
		var same, agreed bool
		err := tx.QueryRow(ctx, `SELECT $1::numeric = $2::numeric, EXISTS (SELECT 1 FROM work_reader_offsets
				WHERE site = $3 AND series_id = $4 AND work_id = $5 AND reader_id <> $6 AND "offset" = $2::numeric)`,
			shared, offset, site, seriesID, workID, readerID).Scan(&same, &agreed)
		switch {
		case err != nil:
			return err
		case same:
			_, err = tx.Exec(ctx, `DELETE FROM work_reader_offsets WHERE reader_id = $1 AND site = $2 AND series_id = $3`,
				readerID, site, seriesID)
		case agreed:
			set = OffsetShared
			err = setSharedOffset(ctx, tx, workID, site, seriesID, offset, false)
		default:
			_, err = tx.Exec(ctx, `INSERT INTO work_reader_offsets (reader_id, work_id, site, series_id, "offset", set_at)
				VALUES ($1, $2, $3, $4, $5::numeric, now())
				ON CONFLICT (reader_id, site, series_id) DO UPDATE SET work_id = excluded.work_id,
					"offset" = excluded."offset", set_at = excluded.set_at`,
				readerID, workID, site, seriesID, offset)
		}
		return err
	})
	if err != nil {
		return OffsetMine, notFound("set member offset", err)
	}
	return set, nil
}

// SetSharedMemberOffset sets a shared member's offset for every Reader
// (the Owner's act, PUT /api/admin/works/…): the shared offset is
// offset, and the Readers' own offsets on the member and the record of a
// reset one (work_offset_resets) go. ErrNotFound when the Series is no
// shared member of the Work.
func (s *Store) SetSharedMemberOffset(ctx context.Context, workID int64, site, seriesID, offset string) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var shared string
		if err := tx.QueryRow(ctx, memberForUpdateSQL, workID, site, seriesID).Scan(&shared); err != nil {
			return err
		}
		if err := setSharedOffset(ctx, tx, workID, site, seriesID, offset, true); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM work_offset_resets WHERE site = $1 AND series_id = $2`, site, seriesID)
		return err
	})
	if err != nil {
		return notFound("set shared member offset", err)
	}
	return nil
}

// setSharedOffset sets the member's shared offset and deletes the
// Readers' own offsets on it: all of them, or those of the same value.
func setSharedOffset(ctx context.Context, tx pgx.Tx, workID int64, site, seriesID, offset string, all bool) error {
	if _, err := tx.Exec(ctx, `UPDATE work_members SET "offset" = $4::numeric
		WHERE work_id = $1 AND site = $2 AND series_id = $3`, workID, site, seriesID, offset); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `DELETE FROM work_reader_offsets WHERE site = $1 AND series_id = $2 AND ($4 OR "offset" = $3::numeric)`,
		site, seriesID, offset, all)
	return err
}

// OffsetReset is a shared offset that migration 0018 set back to 0,
// because nothing recorded which Reader had set it (W5-2): shown on the
// Work page and to the Owner, so whoever set it can set it again as
// their own.
type OffsetReset struct {
	WorkID   int64
	Site     string
	SeriesID string
	Offset   string
	ResetAt  time.Time
}

// OffsetResets lists the reset offsets of Work workID, or of every Work
// when workID is 0, by Work, Site and id.
func (s *Store) OffsetResets(ctx context.Context, workID int64) ([]OffsetReset, error) {
	rows, err := s.pool.Query(ctx, `SELECT work_id, site, series_id, "offset"::text, reset_at FROM work_offset_resets
		WHERE $1 = 0 OR work_id = $1 ORDER BY work_id, site, series_id`, workID)
	if err != nil {
		return nil, fmt.Errorf("store: offset resets: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (OffsetReset, error) {
		var o OffsetReset
		return o, r.Scan(&o.WorkID, &o.Site, &o.SeriesID, &o.Offset, &o.ResetAt)
	})
	if err != nil {
		return nil, fmt.Errorf("store: offset resets: %w", err)
	}
	return out, nil
}
