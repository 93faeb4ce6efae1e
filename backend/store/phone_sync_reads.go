package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/safetext"
)

// syncProgressSQL is the Progress rule (progressUpsertFrom) over the reads
// of a phone's library (distinct Series, as six arrays), stored with
// source sync: forward only, on a bookmark only, never far past the
// Latest Chapter, as every read. One statement for the whole library.
var syncProgressSQL = progressUpsertFrom(`SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
			WITH ORDINALITY`, pastLatestCaseSQL, "sync")

// SyncReadResult is what ApplySyncReads did with one entry.
type SyncReadResult struct {
	Have    bool  // the Reader bookmarks the Series (now)
	Created bool  // the bookmark is new
	Moved   bool  // Progress was created or moved forward
	Refused error // ErrNewSeriesLimit, ErrBookmarkLimit or ErrNeverReadLimit: nothing written
}

// ApplySyncReads applies what a phone's library says of a Reader's
// Series, in one transaction: with addFavorites, each entry (a favourite
// on one of the Sites) becomes a bookmark through the Reader's limits as
// an import's does; then each entry with a Number moves the Progress of
// its bookmark forward only, with source sync. Without addFavorites an
// entry the Reader has not bookmarked writes nothing. Nothing is removed.
func (s *Store) ApplySyncReads(ctx context.Context, readerID int64, entries []ImportEntry, addFavorites bool) ([]SyncReadResult, error) {
	out := make([]SyncReadResult, len(entries))
	if len(entries) == 0 {
		return out, nil
	}
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			for i := range out {
				out[i] = SyncReadResult{}
			}
			if !addFavorites {
				if err := markBookmarked(ctx, tx, readerID, entries, out); err != nil {
					return err
				}
			}
			if addFavorites {
				wants := make([]wantedBookmark, len(entries))
				for i, e := range entries {
					wants[i] = wantedBookmark{Site: e.Site, SeriesID: e.SeriesID, URL: e.URL}
				}
				adm, err := s.admitBookmarks(ctx, tx, readerID, addedByReader, wants)
				if err != nil {
					return err
				}
				for i, a := range adm {
					out[i] = SyncReadResult{Have: a.Refused == nil, Created: a.Created, Refused: a.Refused}
				}
			}
			if err := giveTitles(ctx, tx, readerID, entries, func(i int) bool { return out[i].Have }); err != nil {
				return err
			}
			var queued []int
			var readers []int64
			var sitesArr, ids, numbers, urls []string
			var ats []time.Time
			for i, e := range entries {
				if !out[i].Have || e.Number == "" || e.ReadAt == nil {
					continue
				}
				queued = append(queued, i)
				readers, sitesArr, ids = append(readers, readerID), append(sitesArr, e.Site), append(ids, e.SeriesID)
				numbers, urls, ats = append(numbers, e.Number), append(urls, safetext.URL(e.URL)), append(ats, *e.ReadAt)
			}
			if len(queued) == 0 {
				return nil
			}
			rows, err := tx.Query(ctx, syncProgressSQL, readers, sitesArr, ids, numbers, urls, ats)
			if err != nil {
				return err
			}
			defer rows.Close()
			k := 0
			for rows.Next() {
				var have bool
				var past *string
				if k >= len(queued) {
					return fmt.Errorf("more rows than reads")
				}
				if err := rows.Scan(&have, &out[queued[k]].Moved, &past); err != nil {
					return err
				}
				k++
			}
			return rows.Err()
		})
		if err == nil || !isRetryable(err) {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("store: apply sync reads: %w", err)
	}
	return out, nil
}

// markBookmarked sets Have on the entries the Reader bookmarks.
func markBookmarked(ctx context.Context, tx pgx.Tx, readerID int64, entries []ImportEntry, out []SyncReadResult) error {
	sitesArr, ids := make([]string, len(entries)), make([]string, len(entries))
	for i, e := range entries {
		sitesArr[i], ids[i] = e.Site, e.SeriesID
	}
	rows, err := tx.Query(ctx, `SELECT k.i FROM unnest($2::text[], $3::text[]) WITH ORDINALITY k (site, series_id, i)
		JOIN bookmarks b ON b.reader_id = $1 AND b.site = k.site AND b.series_id = k.series_id`, readerID, sitesArr, ids)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var i int
		if err := rows.Scan(&i); err != nil {
			return err
		}
		out[i-1].Have = true
	}
	return rows.Err()
}

// SyncKey names one Series of a phone's library.
type SyncKey struct{ Site, SeriesID string }

// SyncProgress is a Reader's Progress on one Series in that Series' own
// numbers: its own row, or the Progress on its Work (a read of another
// member, in Work numbers, less this member's offset as the Reader sees
// it), whichever is higher. Source is the source of the row that gives it
// (reader, anilist, sync...).
type SyncProgress struct {
	Number float64
	Source string
}

// ReaderSyncProgress returns the Reader's Progress on each of keys that
// has one, keyed as given.
func (s *Store) ReaderSyncProgress(ctx context.Context, readerID int64, keys []SyncKey) (map[SyncKey]SyncProgress, error) {
	out := map[SyncKey]SyncProgress{}
	if len(keys) == 0 {
		return out, nil
	}
	sitesArr, ids := make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		sitesArr[i], ids[i] = k.Site, k.SeriesID
	}
	// Per key: its own Progress row, and each Progress on a member of its
	// Work (as the Reader sees the Work's members) brought into the key's
	// numbers; the highest wins, its row's source with it.
	q := `WITH k (site, series_id) AS (SELECT DISTINCT * FROM unnest(@sites::text[], @ids::text[])),
		kw AS (SELECT k.site, k.series_id, ` + seriesWorkSQL + ` AS work_id, ` + seriesOffSQL + ` AS off
			FROM k` + seriesWorkJoins("k.site", "k.series_id") + `),
		cand AS (
			SELECT k.site, k.series_id, p.number::float8 AS number, p.source
			FROM k JOIN progress p ON p.reader_id = @reader AND p.site = k.site AND p.series_id = k.series_id
			UNION ALL
			SELECT kw.site, kw.series_id, (p.number + m.off - kw.off)::float8, p.source
			FROM kw CROSS JOIN LATERAL (` + readerMembersSQL("@reader", "= kw.work_id") + `) m
			JOIN progress p ON p.reader_id = @reader AND p.site = m.site AND p.series_id = m.series_id
			WHERE kw.work_id IS NOT NULL
		)
		SELECT DISTINCT ON (site, series_id) site, series_id, number, source
		FROM cand ORDER BY site, series_id, number DESC, source = 'sync'`
	rows, err := s.pool.Query(ctx, q, namedArgs{"reader": readerID, "sites": sitesArr, "ids": ids})
	if err != nil {
		return nil, fmt.Errorf("store: reader sync progress: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k SyncKey
		var p SyncProgress
		if err := rows.Scan(&k.Site, &k.SeriesID, &p.Number, &p.Source); err != nil {
			return nil, fmt.Errorf("store: reader sync progress: %w", err)
		}
		out[k] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reader sync progress: %w", err)
	}
	return out, nil
}

// SyncCounts are the phone sync's figures for /admin and mbctl.
type SyncCounts struct {
	ReadersSyncing int   // Readers with a live sync key
	UploadsToday   int   // uploads on the current UTC day
	BytesStored    int64 // stored libraries: v1 inflated, v2 items sealed
	ProgressMoved  int64 // Progress moved by sync, all time
}

// CountSync returns the phone sync's figures; the day is now's UTC day.
func (s *Store) CountSync(ctx context.Context, now time.Time) (SyncCounts, error) {
	var c SyncCounts
	err := s.pool.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM tokens WHERE scope = 'sync' AND revoked_at IS NULL),
			(SELECT coalesce(sum(uploads), 0) FROM phone_sync_days WHERE day = ($1::timestamptz AT TIME ZONE 'UTC')::date),
			(SELECT coalesce(sum(stored_bytes), 0) FROM phone_sync)
				+ (SELECT coalesce(sum(stored_bytes), 0) FROM sync_v2_libraries),
			(SELECT coalesce(sum(progress_moved), 0) FROM phone_sync_days)`, now).
		Scan(&c.ReadersSyncing, &c.UploadsToday, &c.BytesStored, &c.ProgressMoved)
	if err != nil {
		return SyncCounts{}, fmt.Errorf("store: count sync: %w", err)
	}
	return c, nil
}
