package store

import (
	"context"
	"fmt"
)

// workStatusSQL reads, for the Works @works, each one's status
// (works.status; "unknown" before any member said one), its final chapter
// in the Reader's Work numbers (the highest a member's page or MangaBaka
// entry gives, memberOffSQL; "" for none) and Reader @reader's state of
// it: that of their bookmark of a member (or a hand-linked Series) whose
// state was set last (storyStateSQL over readingStateSQL, so a finished
// story shows completed), "reading" when they bookmark none.
var workStatusSQL = `
	SELECT w.id, coalesce(w.status, 'unknown'),
		coalesce((SELECT max(greatest(fs.final_chapter, fs.mb_final_chapter) + ` + memberOffSQL("@reader", "fm") + `)::text
			FROM work_members fm JOIN series fs ON fs.site = fm.site AND fs.series_id = fm.series_id
			WHERE fm.work_id = w.id), ''),
		coalesce((SELECT ` + storyStateSQL(readingStateSQL, "b.state_at", "b.site", "b.series_id") + `
			FROM bookmarks b
			JOIN series s ON s.site = b.site AND s.series_id = b.series_id
			LEFT JOIN progress p ON p.reader_id = b.reader_id AND p.site = b.site AND p.series_id = b.series_id` + statusJoin + `
			WHERE b.reader_id = @reader AND (b.site, b.series_id) IN (
				SELECT site, series_id FROM work_members WHERE work_id = w.id
				UNION SELECT site, series_id FROM work_hand_links WHERE reader_id = @reader AND work_id = w.id)), 'reading')
	FROM works w WHERE w.id = ANY(@works)`

// fillWorkStatus sets each Work's Status, FinalChapter and State.
func (s *Store) fillWorkStatus(ctx context.Context, readerID int64, ws []Work) error {
	if len(ws) == 0 {
		return nil
	}
	ids := make([]int64, len(ws))
	at := make(map[int64]*Work, len(ws))
	for i := range ws {
		ids[i] = ws[i].ID
		at[ws[i].ID] = &ws[i]
		ws[i].Status, ws[i].State = StatusUnknown, StateReading
	}
	rows, err := s.pool.Query(ctx, workStatusSQL, namedArgs{"reader": readerID, "works": ids})
	if err != nil {
		return fmt.Errorf("store: work status: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var status, final, state string
		if err := rows.Scan(&id, &status, &final, &state); err != nil {
			return fmt.Errorf("store: work status: %w", err)
		}
		if w := at[id]; w != nil {
			w.Status, w.FinalChapter, w.State = status, final, state
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: work status: %w", err)
	}
	return nil
}
