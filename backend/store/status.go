package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// A story's status (docs/CONTEXT.md, "Status";
// docs/adr/0031-status-and-reading-states.md): what the Series' page says
// (series.status, series.final_chapter), and for a shared Work the most
// advanced status its members report (works.status), in statusRank's
// order. A change worth telling (tellable) is recorded once in
// status_changes and owed once to each Reader who follows the story and
// has not put it on hold or dropped it (reader_status_notices); their
// next Digest carries it (reader_notices.go, statusOf).
//
// MangaBaka's status, when the crosswalk looks up an id a Site gave, comes
// in through FillStatus (backend/crosswalk): it fills a Series whose own
// page gives none, and never argues with a Site's word.

// Statuses of a story (series.status, works.status).
const (
	StatusReleasing = "releasing"
	StatusCompleted = "completed"
	StatusHiatus    = "hiatus"
	StatusCancelled = "cancelled"
	StatusUnknown   = "unknown"
)

// statusRank orders the known statuses from least to most advanced: a
// Work's status is the highest its members report (unknown says nothing).
// A hiatus is further along than a run, an end further than a hiatus, and
// a completion further than a cancellation, since a Site that calls a
// story finished has seen its last chapter.
var statusRank = map[string]int{StatusReleasing: 1, StatusHiatus: 2, StatusCancelled: 3, StatusCompleted: 4}

// statusRankSQL is statusRank in SQL over the status expression col
// (unknown 0).
func statusRankSQL(col string) string {
	return `CASE ` + col + ` WHEN 'releasing' THEN 1 WHEN 'hiatus' THEN 2 WHEN 'cancelled' THEN 3 WHEN 'completed' THEN 4 ELSE 0 END`
}

// tellable says whether a story going from was to now is a change Readers
// are told of: into completed, hiatus or cancelled, or releasing again
// after any of those. The first status ever known (was "") is the
// baseline, like a Series' first Latest Chapter.
func tellable(was, now string) bool {
	if was == "" || was == now {
		return false
	}
	switch now {
	case StatusCompleted, StatusHiatus, StatusCancelled:
		return true
	case StatusReleasing:
		return was == StatusHiatus || was == StatusCompleted || was == StatusCancelled
	}
	return false
}

// RecordStatus stores a status and final chapter a source other than the
// Series' own read gives, with the same rules as a read's (the crosswalk
// uses FillStatus, which never argues with a Site's word). ErrNotFound for an unknown
// Series.
func (s *Store) RecordStatus(ctx context.Context, site, seriesID, status, finalChapter string, now time.Time) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM series WHERE site = $1 AND series_id = $2`, site, seriesID).Scan(&one); err != nil {
			return err
		}
		return recordStatus(ctx, tx, site, seriesID, ReadFacts{Status: status, FinalChapter: finalChapter}, now)
	})
	if err != nil {
		return notFound("record status", err)
	}
	return nil
}

// FillStatus is RecordStatus for a source that fills what a Series' own
// page does not say (the crosswalk's MangaBaka entry): it stores status
// and finalChapter only while the Series' stored status is none or
// unknown, under the Series row's lock, and reports whether it did. A
// Site's word is never argued with, so the Series' next read cannot undo
// the fill and tell a change that never happened. ErrNotFound for an
// unknown Series.
func (s *Store) FillStatus(ctx context.Context, site, seriesID, status, finalChapter string, now time.Time) (bool, error) {
	var filled bool
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var was *string
		if err := tx.QueryRow(ctx, `SELECT status FROM series WHERE site = $1 AND series_id = $2 FOR UPDATE`, site, seriesID).Scan(&was); err != nil {
			return err
		}
		if w := deref(was); (w != "" && w != StatusUnknown) || statusRank[status] == 0 {
			return nil
		}
		filled = true
		return recordStatus(ctx, tx, site, seriesID, ReadFacts{Status: status, FinalChapter: finalChapter}, now)
	})
	if err != nil {
		return false, notFound("fill status", err)
	}
	return filled, nil
}

// recordStatus stores the read's status and final chapter on the Series
// (a read without a status keeps the stored one) and, when that changed,
// the story's: the Work's status for a shared member (under the Work
// row's lock, so two Lanes reading two members record one change), the
// Series' own otherwise. A tellable change is recorded and owed.
func recordStatus(ctx context.Context, tx pgx.Tx, site, seriesID string, f ReadFacts, now time.Time) error {
	if statusRank[f.Status] == 0 && f.Status != StatusUnknown {
		return nil
	}
	var final *string
	if f.FinalChapter != "" {
		final = &f.FinalChapter
	}
	var was *string
	var changed bool
	err := tx.QueryRow(ctx, `WITH old AS (SELECT status FROM series WHERE site = $1 AND series_id = $2),
		upd AS (UPDATE series SET status = $3, final_chapter = $4::numeric
			WHERE site = $1 AND series_id = $2 AND (status, final_chapter) IS DISTINCT FROM ($3::text, $4::numeric)
			RETURNING 1)
		SELECT old.status, EXISTS (SELECT 1 FROM upd) FROM old`, site, seriesID, f.Status, final).Scan(&was, &changed)
	if err != nil {
		return fmt.Errorf("store: record status: %w", err)
	}
	if !changed {
		return nil
	}
	var workID int64
	err = tx.QueryRow(ctx, `SELECT work_id FROM work_members WHERE site = $1 AND series_id = $2`, site, seriesID).Scan(&workID)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		old := deref(was)
		if tellable(old, f.Status) {
			return recordChange(ctx, tx, nil, site, seriesID, old, f.Status, final, now)
		}
		return nil
	case err != nil:
		return fmt.Errorf("store: record status: %w", err)
	}
	return recordWorkStatus(ctx, tx, workID, site, seriesID, now)
}

// recordWorkStatus sets a shared Work's status to the most advanced its
// members report. The change, when tellable, is named by the member that
// says it (the one with a final chapter first, then the one just read),
// with that member's final chapter in its own numbers: a Work's numbers
// are each Reader's own (migration 0018), a Series' are everyone's.
func recordWorkStatus(ctx context.Context, tx pgx.Tx, workID int64, site, seriesID string, now time.Time) error {
	var was *string
	if err := tx.QueryRow(ctx, `SELECT status FROM works WHERE id = $1 FOR UPDATE`, workID).Scan(&was); err != nil {
		return fmt.Errorf("store: record work status: %w", err)
	}
	var bySite, byID, status string
	var final *string
	err := tx.QueryRow(ctx, `SELECT s.site, s.series_id, s.status, s.final_chapter::text
		FROM work_members m JOIN series s ON s.site = m.site AND s.series_id = m.series_id
		WHERE m.work_id = $1 AND s.status IS NOT NULL
		ORDER BY `+statusRankSQL("s.status")+` DESC, s.final_chapter IS NULL, (s.site = $2 AND s.series_id = $3) DESC, s.site, s.series_id
		LIMIT 1`, workID, site, seriesID).Scan(&bySite, &byID, &status, &final)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: record work status: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE works SET status = $2 WHERE id = $1 AND status IS DISTINCT FROM $2`, workID, status); err != nil {
		return fmt.Errorf("store: record work status: %w", err)
	}
	if old := deref(was); tellable(old, status) {
		return recordChange(ctx, tx, &workID, bySite, byID, old, status, final, now)
	}
	return nil
}

// recordChange records one tellable change and owes it once to each
// Reader who bookmarks the Series (a lone one) or any member of the Work,
// unless every such bookmark of theirs is on hold or dropped
// (quietStateSQL).
func recordChange(ctx context.Context, tx pgx.Tx, workID *int64, site, seriesID, was, status string, final *string, now time.Time) error {
	_, err := tx.Exec(ctx, `WITH c AS (
			INSERT INTO status_changes (work_id, site, series_id, status, was, final_chapter, changed_at)
			VALUES ($1, $2, $3, $4, $5, $6::numeric, $7) RETURNING id, changed_at)
		INSERT INTO reader_status_notices (reader_id, change_id, changed_at)
		SELECT DISTINCT b.reader_id, c.id, c.changed_at FROM c, bookmarks b
		WHERE `+notQuietSQL("b")+` AND ((b.site = $2 AND b.series_id = $3)
			OR ($1::bigint IS NOT NULL AND (b.site, b.series_id) IN (SELECT site, series_id FROM work_members WHERE work_id = $1)))
		ON CONFLICT DO NOTHING`, workID, site, seriesID, status, was, final, now)
	if err != nil {
		return fmt.Errorf("store: record status change: %w", err)
	}
	return nil
}

// deref is *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
