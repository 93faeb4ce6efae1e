package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Reading states of a Reader's story (bookmarks.state; docs/CONTEXT.md,
// "Reading state"). A Work's state is set on each of the Reader's
// bookmarks of its members.
const (
	StateReading   = "reading"
	StatePlan      = "plan"
	StateOnHold    = "on_hold"
	StateDropped   = "dropped"
	StateCompleted = "completed"
	StateRereading = "rereading"
)

// ReadingStates are the six reading states, in the library's order.
var ReadingStates = []string{StateReading, StateRereading, StatePlan, StateOnHold, StateCompleted, StateDropped}

// ValidState says whether s is one of ReadingStates.
func ValidState(s string) bool {
	for _, v := range ReadingStates {
		if v == s {
			return true
		}
	}
	return false
}

// Quiet says whether a state owes no notices: on hold and dropped.
func Quiet(state string) bool { return state == StateOnHold || state == StateDropped }

// notQuietSQL is the condition that bookmark b is in no quiet state: the
// Reader is owed notices of it. owedInsert and recordChange add it as one
// clause of their own.
func notQuietSQL(b string) string {
	return b + `.state NOT IN ('on_hold', 'dropped')`
}

// storyStateSQL is the state a story's card shows, an aggregate over the
// rows of the Reader's bookmarks in it (SQL expressions: each row's state,
// when it was set, its Site and id): the one set last. For a Series in no
// Work that is its bookmark's; a Work's state is set on every bookmark of
// its members (SetWorkState), and a member bookmarked later keeps its own
// until then. The library's cards (library_page.go) and Updates use it.
func storyStateSQL(state, stateAt, site, seriesID string) string {
	return `(array_agg(` + state + ` ORDER BY ` + stateAt + ` DESC NULLS LAST, ` + site + `, ` + seriesID + `))[1]`
}

// statusJoin joins bookmark b to its shared Work's status (stm, stw), for
// statusColumnsSQL and readingStateSQL.
const statusJoin = `
	LEFT JOIN work_members stm ON stm.site = b.site AND stm.series_id = b.series_id
	LEFT JOIN works stw ON stw.id = stm.work_id`

// finalChapterSQL is the final chapter of bookmark b's story in its
// Series' own numbers, under statusJoin over Series s: the Series' own
// (the higher of its page's and MangaBaka's), else the highest a member
// of its Work gives, in the Reader's Work numbers less this member's
// offset (memberOffSQL: the Reader's own).
var finalChapterSQL = `coalesce(greatest(s.final_chapter, s.mb_final_chapter), (SELECT max(greatest(fs.final_chapter, fs.mb_final_chapter) + ` + memberOffSQL("b.reader_id", "fm") + `)
			FROM work_members fm JOIN series fs ON fs.site = fm.site AND fs.series_id = fm.series_id
			WHERE fm.work_id = stm.work_id) - ` + memberOffSQL("b.reader_id", "stm") + `)`

// readingStateSQL is the state a bookmark b shows, over its Series s, the
// Reader's Progress p and statusJoin: the stored one, except that a story
// never set by hand whose Progress reached its final chapter is finished
// (completed).
var readingStateSQL = `CASE WHEN NOT b.state_by_hand AND b.state = 'reading' AND p.number >= ` + finalChapterSQL + `
			THEN 'completed' ELSE b.state END`

// statusColumnsSQL are a bookmark's status (its Work's, else its Series'
// story status: storyStatusSQL), final chapter and state (read into
// Bookmark.Status, FinalChapter and State) under statusJoin.
var statusColumnsSQL = `coalesce(stw.status, ` + storyStatusSQL("s") + `, 'unknown'), coalesce((` + finalChapterSQL + `)::text, ''),
		` + readingStateSQL

// SetBookmarkState sets the Reader's state of one bookmarked Series, by
// hand. ErrNotFound when they have no such bookmark.
func (s *Store) SetBookmarkState(ctx context.Context, readerID int64, site, seriesID, state string, now time.Time) error {
	return s.setStates(ctx, readerID, `b.site = $3 AND b.series_id = $4`, state, now, site, seriesID)
}

// SetWorkState sets the Reader's state of a Work, by hand, on each of
// their bookmarks of its members as they see it (their hand links too).
// ErrNotFound when they bookmark none of it.
func (s *Store) SetWorkState(ctx context.Context, readerID, workID int64, state string, now time.Time) error {
	return s.setStates(ctx, readerID, `(b.site, b.series_id) IN (
		SELECT site, series_id FROM work_members WHERE work_id = $3
		UNION SELECT site, series_id FROM work_hand_links WHERE reader_id = $1 AND work_id = $3)`, state, now, workID)
}

// setStates sets state on the Reader's ($1) bookmarks b matching where
// (its further arguments from $3 on; $2 is the state, now the last). A
// quiet state also settles what they were still owed of those Series:
// their Chapter notices (as off) and their status lines.
func (s *Store) setStates(ctx context.Context, readerID int64, where, state string, now time.Time, args ...any) error {
	if !ValidState(state) {
		return fmt.Errorf("store: set state: %q is no reading state", state)
	}
	nowArg := fmt.Sprintf("$%d", len(args)+3)
	all := append([]any{readerID, state}, args...)
	all = append(all, now)
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `UPDATE bookmarks b SET state = $2, state_by_hand = true, state_at = `+nowArg+`
			WHERE b.reader_id = $1 AND `+where+` RETURNING b.site, b.series_id`, all...)
		if err != nil {
			return err
		}
		var sites, ids []string
		for rows.Next() {
			var site, id string
			if err := rows.Scan(&site, &id); err != nil {
				rows.Close()
				return err
			}
			sites, ids = append(sites, site), append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(sites) == 0 {
			return pgx.ErrNoRows
		}
		if !Quiet(state) {
			return nil
		}
		return settleQuiet(ctx, tx, readerID, sites, ids, now)
	})
	if err != nil {
		return notFound("set state", err)
	}
	return nil
}

// settleQuiet settles the Reader's owed Chapter notices of the Series (as
// off: they are never sent) and their owed status lines of them.
func settleQuiet(ctx context.Context, tx pgx.Tx, readerID int64, sites, ids []string, now time.Time) error {
	if _, err := tx.Exec(ctx, `UPDATE reader_notices n SET done_at = $4, outcome = '`+NoticeOff+`'
		FROM unnest($2::text[], $3::text[]) AS q(site, series_id)
		WHERE n.reader_id = $1 AND n.site = q.site AND n.series_id = q.series_id AND n.done_at IS NULL`,
		readerID, sites, ids, now); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `UPDATE reader_status_notices n SET done_at = $4
		FROM status_changes c, unnest($2::text[], $3::text[]) AS q(site, series_id)
		WHERE n.reader_id = $1 AND c.id = n.change_id AND n.done_at IS NULL
			AND ((c.site = q.site AND c.series_id = q.series_id)
				OR c.work_id IN (SELECT work_id FROM work_members m WHERE m.site = q.site AND m.series_id = q.series_id))`,
		readerID, sites, ids, now)
	return err
}

// TrackerState is one bookmark's reading state as a tracker's list says.
type TrackerState struct {
	Site, SeriesID string
	State          string
}

// applyTrackerStates sets each pulled state on the Reader's bookmark when
// they never set its state by hand (state_by_hand stays false: the next
// pull may change it again); a quiet one settles what was owed.
func applyTrackerStates(ctx context.Context, tx pgx.Tx, p TrackerPulled) error {
	var sites, ids, states []string
	for _, st := range p.States {
		if ValidState(st.State) {
			sites, ids, states = append(sites, st.Site), append(ids, st.SeriesID), append(states, st.State)
		}
	}
	if len(sites) == 0 {
		return nil
	}
	rows, err := tx.Query(ctx, `UPDATE bookmarks b SET state = q.state, state_at = $5
		FROM (SELECT DISTINCT ON (site, series_id) site, series_id, state
			FROM unnest($2::text[], $3::text[], $4::text[]) AS u (site, series_id, state) ORDER BY site, series_id) q
		WHERE b.reader_id = $1 AND b.site = q.site AND b.series_id = q.series_id
			AND NOT b.state_by_hand AND b.state <> q.state
		RETURNING b.site, b.series_id, b.state`, p.ReaderID, sites, ids, states, p.Now)
	if err != nil {
		return err
	}
	var qs, qi []string
	for rows.Next() {
		var site, id, state string
		if err := rows.Scan(&site, &id, &state); err != nil {
			rows.Close()
			return err
		}
		if Quiet(state) {
			qs, qi = append(qs, site), append(qi, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(qs) == 0 {
		return nil
	}
	return settleQuiet(ctx, tx, p.ReaderID, qs, qi, p.Now)
}
