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

// ProgressUpsertSQL is the statement ApplyReads runs per read. It is
// exported so the raw-PostgreSQL benchmark runs exactly the same SQL.
//
// Progress is the furthest chapter read: the row moves only when the
// incoming number is numerically greater than the stored one. read_at never
// decides; it is carried along with the number that set it. A replayed or
// older read therefore changes nothing, in any order of arrival. A read of
// a Series not yet known creates the Series, and a read of a Series the
// Reader has not bookmarked creates the bookmark (reading is bookmarking);
// the foreign keys are checked at the end of the statement and see the rows
// the CTEs inserted.
const ProgressUpsertSQL = `
	WITH s AS (
		INSERT INTO series (site, series_id, url) VALUES ($2, $3, $4)
		ON CONFLICT (site, series_id) DO NOTHING
	), b AS (
		INSERT INTO bookmarks (reader_id, site, series_id) VALUES ($1, $2, $3)
		ON CONFLICT (reader_id, site, series_id) DO NOTHING
	)
	INSERT INTO progress (reader_id, site, series_id, number, url, read_at, updated_at)
	VALUES ($1, $2, $3, $5::numeric, $6, $7, now())
	ON CONFLICT (reader_id, site, series_id) DO UPDATE
		SET number = excluded.number, url = excluded.url, read_at = excluded.read_at, updated_at = now()
		WHERE excluded.number > progress.number`

// ApplyReads applies a batch of reads in one round trip and reports, per
// read, whether it moved (or created) Progress. The batch is one implicit
// transaction: a database error fails it whole.
func (s *Store) ApplyReads(ctx context.Context, reads []Read) ([]bool, error) {
	if len(reads) == 0 {
		return nil, nil
	}
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var moved []bool
		moved, err = s.applyReads(ctx, reads)
		// A Series removed as an orphan between the CTE's look and the
		// bookmark's foreign key check (or a deadlock with such a removal):
		// the batch is idempotent, so run it again (it recreates the Series).
		if err == nil || !isRetryable(err) {
			return moved, err
		}
	}
	return nil, err
}

func (s *Store) applyReads(ctx context.Context, reads []Read) ([]bool, error) {
	if len(reads) == 1 {
		r := reads[0]
		tag, err := s.pool.Exec(ctx, ProgressUpsertSQL, r.ReaderID, r.Site, r.SeriesID, safetext.URL(r.SeriesURL), r.Number, safetext.URL(r.URL), r.ReadAt)
		if err != nil {
			return nil, fmt.Errorf("store: apply read: %w", err)
		}
		return []bool{tag.RowsAffected() == 1}, nil
	}
	b := &pgx.Batch{}
	for _, r := range reads {
		b.Queue(ProgressUpsertSQL, r.ReaderID, r.Site, r.SeriesID, safetext.URL(r.SeriesURL), r.Number, safetext.URL(r.URL), r.ReadAt)
	}
	br := s.pool.SendBatch(ctx, b)
	out := make([]bool, len(reads))
	for i := range reads {
		tag, err := br.Exec()
		if err != nil {
			_ = br.Close()
			return nil, fmt.Errorf("store: apply reads: %w", err)
		}
		out[i] = tag.RowsAffected() == 1
	}
	if err := br.Close(); err != nil {
		return nil, fmt.Errorf("store: apply reads: %w", err)
	}
	return out, nil
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
