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
// MangaBaka's status is one more source (status_mangabaka.go): the
// crosswalk stores it apart (series.mb_status), a Site's read never
// touches it, and a story's status is the most advanced of the Series'
// own and MangaBaka's (storyStatus), a Work's over every member's both.

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

// RecordStatus stores a status and final chapter as the Series' own page
// saying them, with a read's rules (tests and seeding; MangaBaka's word
// goes through RecordMangaBakaStatus). ErrNotFound for an unknown Series.
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

// recordStatus stores the read's status and final chapter on the Series
// (a read without a status keeps the stored one) and, when that changed,
// the story's (storyChanged).
func recordStatus(ctx context.Context, tx pgx.Tx, site, seriesID string, f ReadFacts, now time.Time) error {
	if statusRank[f.Status] == 0 && f.Status != StatusUnknown {
		return nil
	}
	var final *string
	if f.FinalChapter != "" {
		final = &f.FinalChapter
	}
	var was, mb, mbFinal *string
	var changed bool
	err := tx.QueryRow(ctx, `WITH old AS (SELECT status, mb_status, mb_final_chapter::text AS mb_final FROM series WHERE site = $1 AND series_id = $2),
		upd AS (UPDATE series SET status = $3, final_chapter = $4::numeric
			WHERE site = $1 AND series_id = $2 AND (status, final_chapter) IS DISTINCT FROM ($3::text, $4::numeric)
			RETURNING 1)
		SELECT old.status, old.mb_status, old.mb_final, EXISTS (SELECT 1 FROM upd) FROM old`, site, seriesID, f.Status, final).Scan(&was, &mb, &mbFinal, &changed)
	if err != nil {
		return fmt.Errorf("store: record status: %w", err)
	}
	if !changed {
		return nil
	}
	return storyChanged(ctx, tx, site, seriesID, storyStatus(deref(was), deref(mb)),
		storyWord(f.Status, final, deref(mb), mbFinal), now)
}

// storyStatus is the story status of a Series whose own page says site
// and MangaBaka says mb: the more advanced (statusRank), the page's on a
// tie, "" when neither said anything.
func storyStatus(site, mb string) string {
	if site == "" || statusRank[mb] > statusRank[site] {
		return mb
	}
	return site
}

// word is one source's status and final chapter.
type word struct {
	status string
	final  *string
}

// storyWord is the word of whichever source storyStatus takes, its final
// chapter that source's, or the other's when it gives none.
func storyWord(site string, siteFinal *string, mb string, mbFinal *string) word {
	if storyStatus(site, mb) == site {
		if siteFinal == nil {
			siteFinal = mbFinal
		}
		return word{site, siteFinal}
	}
	if mbFinal == nil {
		mbFinal = siteFinal
	}
	return word{mb, mbFinal}
}

// storyStatusSQL is storyStatus over Series s's columns.
func storyStatusSQL(s string) string {
	return `CASE WHEN ` + s + `.status IS NULL OR ` + statusRankSQL(s+".mb_status") + ` > ` + statusRankSQL(s+".status") +
		` THEN ` + s + `.mb_status ELSE ` + s + `.status END`
}

// storyChanged follows a change of one of Series (site, seriesID)'s
// sources: for a shared member, the Work's status (recordWorkStatus);
// for a lone Series, its story status going from was to now, recorded
// and owed when tellable.
func storyChanged(ctx context.Context, tx pgx.Tx, site, seriesID, was string, now word, at time.Time) error {
	var workID int64
	err := tx.QueryRow(ctx, `SELECT work_id FROM work_members WHERE site = $1 AND series_id = $2`, site, seriesID).Scan(&workID)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if tellable(was, now.status) {
			return recordChange(ctx, tx, nil, site, seriesID, was, now.status, now.final, at)
		}
		return nil
	case err != nil:
		return fmt.Errorf("store: record status: %w", err)
	}
	return recordWorkStatus(ctx, tx, workID, site, seriesID, at)
}

// recordWorkStatus sets a shared Work's status to the most advanced its
// members report, each member's own page and its MangaBaka entry counting
// as one source each. The change, when tellable, is named by the member
// that says it (the one with a final chapter first, then the one just read),
// with that member's final chapter in its own numbers: a Work's numbers
// are each Reader's own (migration 0018), a Series' are everyone's.
func recordWorkStatus(ctx context.Context, tx pgx.Tx, workID int64, site, seriesID string, now time.Time) error {
	var was *string
	if err := tx.QueryRow(ctx, `SELECT status FROM works WHERE id = $1 FOR UPDATE`, workID).Scan(&was); err != nil {
		return fmt.Errorf("store: record work status: %w", err)
	}
	var bySite, byID, status string
	var final *string
	err := tx.QueryRow(ctx, `SELECT s.site, s.series_id, w.status, w.final::text
		FROM work_members m JOIN series s ON s.site = m.site AND s.series_id = m.series_id,
			LATERAL (VALUES (s.status, s.final_chapter), (s.mb_status, s.mb_final_chapter)) w(status, final)
		WHERE m.work_id = $1 AND w.status IS NOT NULL
		ORDER BY `+statusRankSQL("w.status")+` DESC, w.final IS NULL, (s.site = $2 AND s.series_id = $3) DESC, s.site, s.series_id
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
// (notQuietSQL).
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
