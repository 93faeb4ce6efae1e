package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/safetext"
)

// ImportResult is what ImportBookmarks did with one entry.
type ImportResult struct {
	Created bool  // the bookmark is new
	Moved   bool  // Progress was created or moved forward
	Refused error // ErrNewSeriesLimit, ErrBookmarkLimit or ErrNeverReadLimit: nothing written
}

// ImportBookmarks adds a Reader's bookmarks for entries through the same
// limits as AddReaderBookmark, in one transaction, then moves the Progress
// of every admitted entry that carries a Number, forward only (the
// statement POST /api/progress runs). A new bookmark's created_at is the
// time of this call, so the New Chapters already out count as before it.
func (s *Store) ImportBookmarks(ctx context.Context, readerID int64, entries []ImportEntry) ([]ImportResult, error) {
	out := make([]ImportResult, len(entries))
	if len(entries) == 0 {
		return out, nil
	}
	wants := make([]wantedBookmark, len(entries))
	for i, e := range entries {
		wants[i] = wantedBookmark{Site: e.Site, SeriesID: e.SeriesID, URL: e.URL}
	}
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			adm, err := s.admitBookmarks(ctx, tx, readerID, addedByReader, wants)
			if err != nil {
				return err
			}
			if err := giveTitles(ctx, tx, readerID, entries, func(i int) bool { return adm[i].Refused == nil }); err != nil {
				return err
			}
			if err := importStates(ctx, tx, readerID, entries, adm); err != nil {
				return err
			}
			b := &pgx.Batch{}
			var queued []int
			for i, a := range adm {
				out[i] = ImportResult{Created: a.Created, Refused: a.Refused}
				e := entries[i]
				if a.Created && validNotifyMode(e.NotifyMode) {
					if _, err := tx.Exec(ctx, `UPDATE bookmarks SET notify_mode = $4,
							notify_pile = coalesce(nullif($5, 0), notify_pile), notify_pile_days = coalesce(nullif($6, 0), notify_pile_days)
						WHERE reader_id = $1 AND site = $2 AND series_id = $3`,
						readerID, e.Site, e.SeriesID, e.NotifyMode, pileBound(e.NotifyPile, NotifyPileMax), pileBound(e.NotifyPileDays, NotifyPileDaysMax)); err != nil {
						return err
					}
				}
				if a.Refused != nil || e.Number == "" || e.ReadAt == nil {
					continue
				}
				b.Queue(ProgressUpsertSQL, readerID, e.Site, e.SeriesID, e.Number, safetext.URL(e.URL), *e.ReadAt)
				queued = append(queued, i)
			}
			if len(queued) == 0 {
				return nil
			}
			br := tx.SendBatch(ctx, b)
			for _, i := range queued {
				var have bool
				var past *string // the Latest Chapter a read far past it is held to: not moved
				if err := br.QueryRow().Scan(&have, &out[i].Moved, &past); err != nil {
					_ = br.Close()
					return err
				}
			}
			return br.Close()
		})
		if err == nil || !isRetryable(err) {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("store: import bookmarks: %w", err)
	}
	return out, nil
}

// giveTitles keeps the title an import or a phone's favourite gives each
// entry (have(i): its bookmark is in) on the Reader's bookmark, cleaned
// as a line, while its Series has no title of its own: a Reader's word
// stays in that Reader's library and never reaches series.title, which
// every Reader shares. A later import's title replaces an earlier one; an
// entry with none leaves what is there. One statement for all entries.
func giveTitles(ctx context.Context, tx pgx.Tx, readerID int64, entries []ImportEntry, have func(int) bool) error {
	var sitesArr, ids, titles []string
	for i, e := range entries {
		t := GivenTitle(e.Title)
		if t == "" || !have(i) {
			continue
		}
		sitesArr, ids, titles = append(sitesArr, e.Site), append(ids, e.SeriesID), append(titles, t)
	}
	if len(titles) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `UPDATE bookmarks b SET given_title = k.title
		FROM unnest($2::text[], $3::text[], $4::text[]) k (site, series_id, title), series s
		WHERE b.reader_id = $1 AND b.site = k.site AND b.series_id = k.series_id
			AND s.site = k.site AND s.series_id = k.series_id AND s.title = ''
			AND b.given_title IS DISTINCT FROM k.title`, readerID, sitesArr, ids, titles)
	return err
}

// importStates sets, by hand, the reading state each entry gives on the
// bookmark it created (not on one the Reader already had), when that is
// another state than reading (an entry given twice: its last), in one
// statement for all entries.
func importStates(ctx context.Context, tx pgx.Tx, readerID int64, entries []ImportEntry, adm []admission) error {
	var sitesArr, ids, states []string
	for i, e := range entries {
		if adm[i].Created && ValidState(e.ReadingState) && e.ReadingState != StateReading {
			sitesArr, ids, states = append(sitesArr, e.Site), append(ids, e.SeriesID), append(states, e.ReadingState)
		}
	}
	if len(states) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `UPDATE bookmarks b SET state = k.state, state_by_hand = true
		FROM (SELECT DISTINCT ON (site, series_id) site, series_id, state
			FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY u (site, series_id, state, i)
			ORDER BY site, series_id, i DESC) k
		WHERE b.reader_id = $1 AND b.site = k.site AND b.series_id = k.series_id`, readerID, sitesArr, ids, states)
	return err
}

// GivenTitle is a title a file or a phone gives, as a bookmark keeps it:
// one line (safetext.Line: controls and bidi controls dropped, trimmed,
// at most safetext.MaxLine characters), "" when nothing is left.
func GivenTitle(s string) string {
	return safetext.Line(s)
}

func validNotifyMode(m string) bool { return m == "each" || m == "off" || m == "pile" }

// pileBound is a pile threshold within 1..max, or 0 (keep the default) for
// one outside it: the decoder refuses those, and a stored entry must not
// fail the whole import on the table's check.
func pileBound(n, max int) int {
	if n < 1 || n > max {
		return 0
	}
	return n
}

// NotifyModes returns the notice mode of each of a Reader's bookmarks,
// keyed by site and series id.
func (s *Store) NotifyModes(ctx context.Context, readerID int64) (map[[2]string]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT site, series_id, notify_mode FROM bookmarks WHERE reader_id = $1`, readerID)
	if err != nil {
		return nil, fmt.Errorf("store: notify modes: %w", err)
	}
	defer rows.Close()
	out := map[[2]string]string{}
	for rows.Next() {
		var site, id, mode string
		if err := rows.Scan(&site, &id, &mode); err != nil {
			return nil, fmt.Errorf("store: notify modes: %w", err)
		}
		out[[2]string{site, id}] = mode
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: notify modes: %w", err)
	}
	return out, nil
}
