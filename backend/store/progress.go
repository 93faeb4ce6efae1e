package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/safetext"
)

// Read is one chapter read a Reader reports. Number is a normalised decimal
// string ("12", "12.5"); SeriesURL is the canonical Series URL, used only
// when the Series has to be created.
type Read struct {
	ReaderID  int64
	Site      string
	SeriesID  string
	SeriesURL string
	Number    string
	URL       string // the chapter page the read happened on
	ReadAt    time.Time
}

// ProgressUpsertSQL is the statement ApplyReads runs per read of a Series
// the Reader has bookmarked (every read after the first), with the read's
// six values as $1..$6 (reader, Site, Series id, number, chapter URL,
// read_at). It is exported so the raw-PostgreSQL benchmark runs exactly the
// same SQL. Its one row says whether the bookmark exists, whether Progress
// moved, and, when the read was refused as too far past the Series' Latest
// Chapter (PastLatestMargin), that Latest Chapter's number (NULL
// otherwise). It is progressUpsert over one read.
var ProgressUpsertSQL = progressUpsert(`VALUES ($1::bigint, $2::text, $3::text, $4::text, $5::text, $6::timestamptz, 1::bigint)`)

// progressMergeSQL is progressUpsert over many reads of distinct (reader,
// Site, Series) keys, given as six arrays (progress_merge.go).
var progressMergeSQL = progressUpsert(`SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
			WITH ORDINALITY`)

// progressUpsert is the one statement of the Progress rule, over the reads
// the input query yields as rows (reader_id, site, series_id, number, url,
// read_at, i) of distinct keys: one answer row per read, in order of i.
//
// Progress is the furthest chapter read: the row moves only when the
// incoming number is numerically greater than the stored one. read_at never
// decides; it is carried along with the number that set it. A replayed or
// older read therefore changes nothing, in any order of arrival. A read too
// far past the Latest Chapter (pastLatestCaseSQL) writes nothing. A read of
// a Series the Reader has not bookmarked writes nothing here: ApplyReads
// then creates the bookmark (reading is bookmarking), and the Series when
// it is not known, within the Reader's limits (limits.go) and unless the
// Reader turned that off (preferences.go).
func progressUpsert(input string) string {
	return progressUpsertFrom(input, pastLatestCaseSQL, "reader")
}

// progressUpsertFrom is progressUpsert with its past-Latest rule (an SQL
// expression over u and s, NULL to accept the read) and the source the
// Progress is stored with ('reader', or a tracker's name: a pulled count
// may stand above the Latest Chapter, read elsewhere).
func progressUpsertFrom(input, pastCase, source string) string {
	return `
	WITH u (reader_id, site, series_id, number, url, read_at, i) AS (
		` + input + `
	), b AS (
		SELECT u.*, ` + pastCase + ` AS past
		FROM u JOIN bookmarks bk
			ON bk.reader_id = u.reader_id AND bk.site = u.site AND bk.series_id = u.series_id
		JOIN series s ON s.site = u.site AND s.series_id = u.series_id
	), up AS (
		INSERT INTO progress (reader_id, site, series_id, number, url, read_at, updated_at, source)
		SELECT reader_id, site, series_id, number::numeric, url, read_at, now(), '` + source + `' FROM b WHERE past IS NULL
		ON CONFLICT (reader_id, site, series_id) DO UPDATE
			SET number = excluded.number, url = excluded.url, read_at = excluded.read_at, updated_at = now(),
				source = excluded.source
			WHERE excluded.number > progress.number
		RETURNING reader_id, site, series_id
	)
	SELECT b.i IS NOT NULL, up.reader_id IS NOT NULL, b.past
	FROM u
	LEFT JOIN b ON b.i = u.i
	LEFT JOIN up ON up.reader_id = u.reader_id AND up.site = u.site AND up.series_id = u.series_id
	ORDER BY u.i`
}

// ReadResult is what ApplyReads did with one read.
type ReadResult struct {
	Moved bool // Progress was created or moved forward
	// Refused is ErrNewSeriesLimit or ErrBookmarkLimit when the read needed
	// a bookmark (or a Series) the Reader may not add now, or ErrPastLatest
	// when it lies too far past the Latest Chapter; nothing was written
	// for it.
	Refused error
	// Latest is the Series' Latest Chapter number when Refused is
	// ErrPastLatest, for the Reader's message.
	Latest string
}

// ApplyReads applies a batch of reads and reports, per read, whether it
// moved (or created) Progress or was refused by the Reader's limits. Reads
// of bookmarked Series take one round trip for the whole batch (a batch of
// one read shares its statement with other callers' reads); the reads that
// need a new bookmark then take one transaction per Reader. A database
// error fails the call whole.
func (s *Store) ApplyReads(ctx context.Context, reads []Read) ([]ReadResult, error) {
	if len(reads) == 0 {
		return nil, nil
	}
	// URLs come from a Reader: stored cut to safetext's bound, whichever
	// path (bookmarked, merged or new Series) the read then takes.
	clean := make([]Read, len(reads))
	for i, r := range reads {
		r.URL, r.SeriesURL = safetext.URL(r.URL), safetext.URL(r.SeriesURL)
		clean[i] = r
	}
	reads = clean
	out := make([]ReadResult, len(reads))
	var missing []int
	var err error
	for attempt := 0; ; attempt++ {
		// A bookmark removed between the look and the foreign key check:
		// run the batch again (the read then takes the new-bookmark path).
		missing, err = s.applyBookmarked(ctx, reads, out)
		if err == nil || !isRetryable(err) || attempt == 2 {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	for len(missing) > 0 {
		reader := reads[missing[0]].ReaderID
		var mine, rest []int
		for _, i := range missing {
			if reads[i].ReaderID == reader {
				mine = append(mine, i)
			} else {
				rest = append(rest, i)
			}
		}
		for attempt := 0; ; attempt++ {
			// A Series removed as an orphan between our look and the
			// bookmark's foreign key check (or a deadlock with such a
			// removal): the transaction is idempotent, so run it again.
			err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return s.applyNew(ctx, tx, reads, mine, out) })
			if err == nil || !isRetryable(err) || attempt == 2 {
				break
			}
		}
		if err != nil {
			return nil, fmt.Errorf("store: apply reads: %w", err)
		}
		missing = rest
	}
	return out, nil
}

// applyBookmarked runs ProgressUpsertSQL for every read in one batch and
// returns the indexes of the reads whose bookmark does not exist.
func (s *Store) applyBookmarked(ctx context.Context, reads []Read, out []ReadResult) ([]int, error) {
	var missing []int
	if len(reads) == 1 {
		// A request of one read (the userscript's usual) shares a
		// statement with other requests' reads (progress_merge.go).
		res, err := s.merge.apply(ctx, reads[0])
		if err != nil {
			return nil, err
		}
		out[0] = res.result()
		if !res.have {
			missing = append(missing, 0)
		}
		return missing, nil
	}
	b := &pgx.Batch{}
	for _, r := range reads {
		b.Queue(ProgressUpsertSQL, r.ReaderID, r.Site, r.SeriesID, r.Number, r.URL, r.ReadAt)
	}
	br := s.pool.SendBatch(ctx, b)
	for i := range reads {
		var res mergeResult
		if err := br.QueryRow().Scan(&res.have, &res.moved, &res.past); err != nil {
			_ = br.Close()
			return nil, fmt.Errorf("store: apply reads: %w", err)
		}
		out[i] = res.result()
		if !res.have {
			missing = append(missing, i)
		}
	}
	if err := br.Close(); err != nil {
		return nil, fmt.Errorf("store: apply reads: %w", err)
	}
	return missing, nil
}

// applyNew admits the bookmarks the reads at idx need (one Reader's) and
// applies the admitted reads, in order, in tx.
func (s *Store) applyNew(ctx context.Context, tx pgx.Tx, reads []Read, idx []int, out []ReadResult) error {
	idx, err := s.guardNew(ctx, tx, reads, idx, out)
	if err != nil || len(idx) == 0 {
		return err
	}
	wants := make([]wantedBookmark, len(idx))
	for k, i := range idx {
		wants[k] = wantedBookmark{Site: reads[i].Site, SeriesID: reads[i].SeriesID, URL: reads[i].SeriesURL}
	}
	adm, err := s.admitBookmarks(ctx, tx, reads[idx[0]].ReaderID, addedByRead, wants)
	if err != nil {
		return err
	}
	b := &pgx.Batch{}
	var queued []int
	for k, i := range idx {
		out[i] = ReadResult{Refused: adm[k].Refused}
		if adm[k].Refused == nil {
			r := reads[i]
			b.Queue(ProgressUpsertSQL, r.ReaderID, r.Site, r.SeriesID, r.Number, r.URL, r.ReadAt)
			queued = append(queued, i)
		}
	}
	if len(queued) == 0 {
		return nil
	}
	br := tx.SendBatch(ctx, b)
	for _, i := range queued {
		var res mergeResult
		if err := br.QueryRow().Scan(&res.have, &res.moved, &res.past); err != nil {
			_ = br.Close()
			return err
		}
		out[i] = res.result()
	}
	return br.Close()
}

// Progress is a Reader's Progress on one Series.
type Progress struct {
	Number string
	URL    string
	ReadAt time.Time
}

// GetProgress returns a Reader's Progress on a Series, or ErrNotFound.
func (s *Store) GetProgress(ctx context.Context, readerID int64, site, seriesID string) (Progress, error) {
	var p Progress
	err := s.pool.QueryRow(ctx, `SELECT number::text, url, read_at FROM progress
		WHERE reader_id = $1 AND site = $2 AND series_id = $3`, readerID, site, seriesID).Scan(&p.Number, &p.URL, &p.ReadAt)
	if err != nil {
		return Progress{}, notFound("get progress", err)
	}
	return p, nil
}

// AdvanceProgress moves a Reader's Progress on a Series they bookmark to
// number when that is further (ProgressUpsertSQL); it never creates a
// bookmark. It reports whether Progress moved.
func (s *Store) AdvanceProgress(ctx context.Context, readerID int64, site, seriesID, number, url string, at time.Time) (bool, error) {
	var bookmarked, moved bool
	var past *string
	err := s.pool.QueryRow(ctx, ProgressUpsertSQL, readerID, site, seriesID, number, safetext.URL(url), at).Scan(&bookmarked, &moved, &past)
	if err != nil {
		return false, fmt.Errorf("store: advance progress: %w", err)
	}
	return moved, nil
}
