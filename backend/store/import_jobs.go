package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/safetext"
)

// Import job states.
const (
	ImportRunning = "running" // being applied (or taken back after a crash)
	ImportWaiting = "waiting" // entries wait for the Reader's allowance of new Series
	ImportDone    = "done"
	ImportFailed  = "failed"
)

// Import entry states.
const (
	EntryPending = "pending" // not applied yet, or held by the hourly allowance
	EntryAdded   = "added"   // the import created the bookmark
	EntryAlready = "already" // the Reader had the bookmark before
)

// ImportEntry is one Series an import names, and what became of it.
type ImportEntry struct {
	Item     string     `json:"item"` // what the file said (a URL, or "source: title")
	Site     string     `json:"site"`
	SeriesID string     `json:"series_id"`
	URL      string     `json:"url"`              // the canonical Series URL
	Number   string     `json:"number,omitempty"` // Progress to apply ("" for none)
	ReadAt   *time.Time `json:"read_at,omitempty"`
	// NotifyMode is the notice mode a new bookmark gets ("each", "off",
	// "pile"; "" keeps the default), from this server's own export.
	NotifyMode string `json:"notify_mode,omitempty"`
	// NotifyPile and NotifyPileDays are a new pile bookmark's thresholds
	// (0 keeps the default), from this server's own export.
	NotifyPile     int    `json:"notify_pile,omitempty"`
	NotifyPileDays int    `json:"notify_pile_days,omitempty"`
	State          string `json:"state"`
	// ReadingState is the reading state a new bookmark gets ("" keeps
	// the default), from this server's own export.
	ReadingState string `json:"reading_state,omitempty"`
	// IDs are the Series' external ids the file named (source import),
	// stored once its bookmark is in.
	IDs []ExternalID `json:"ids,omitempty"`
	// Title is the story's title as the file gives it ("" for none): the
	// Reader's word, kept on their bookmark while the Series has no title
	// of its own (giveTitles), never on the shared Series.
	Title string `json:"title,omitempty"`
}

// ImportProblem is one item an import could not bring in, with the reason
// (one sentence a Reader can act on).
type ImportProblem struct {
	Item   string `json:"item"`
	Reason string `json:"reason"`
}

// Bounds on what one Reader's imports keep (issue 33): a job stores the
// first MaxStoredProblems items it could not bring in, each cut to
// maxProblemBytes, and counts the rest; a Reader keeps the newest
// MaxImportsKept imports, the older finished ones deleted as a new one is
// recorded. So a Reader's import_jobs rows stay within a few MiB however
// many imports they send, and a listing reads no items at all.
const (
	MaxStoredProblems = 50
	MaxImportsKept    = 20
	maxProblemBytes   = 512
)

// ImportJob is one row of import_jobs. Entries is loaded only by the calls
// that say so (GetImport with entries, ClaimDueImports); Unsupported by
// GetImport and ClaimDueImports, never by ListImports.
type ImportJob struct {
	ID, ReaderID    int64
	Kind, State     string
	Source          string // the MangaDex list URL of a mangadex_list import
	Total           int
	Added, Already  int
	ProgressApplied int
	Waiting         int
	Entries         []ImportEntry
	// Unsupported is the first MaxStoredProblems items the import could
	// not bring in; UnsupportedCount counts every one of them, kept or
	// not. Add one with AddProblem, which keeps both in step.
	Unsupported      []ImportProblem
	UnsupportedCount int
	NextAt           *time.Time // when the allowance will admit more (waiting)
	DueAt            *time.Time // when the import service next takes the job
	CreatedAt        time.Time
	FinishedAt       *time.Time
}

// AddProblem records one more item the import could not bring in: counted
// always, kept while fewer than MaxStoredProblems are.
func (j *ImportJob) AddProblem(p ImportProblem) {
	j.UnsupportedCount = max(j.UnsupportedCount, len(j.Unsupported)) + 1
	if len(j.Unsupported) < MaxStoredProblems {
		j.Unsupported = append(j.Unsupported, p)
	}
}

// importColumns are the columns every read of a job scans: the count of
// unsupported items, never the items (importItems adds them).
const importColumns = `id, reader_id, kind, state, source, total, added, already, progress_applied, waiting,
	jsonb_array_length(unsupported) + unsupported_dropped, next_at, due_at, created_at, finished_at`

func scanImport(row scanner, items, entries bool) (ImportJob, error) {
	var j ImportJob
	var uns, ents []byte
	dst := []any{&j.ID, &j.ReaderID, &j.Kind, &j.State, &j.Source, &j.Total, &j.Added, &j.Already,
		&j.ProgressApplied, &j.Waiting, &j.UnsupportedCount, &j.NextAt, &j.DueAt, &j.CreatedAt, &j.FinishedAt}
	if items {
		dst = append(dst, &uns)
	}
	if entries {
		dst = append(dst, &ents)
	}
	if err := row.Scan(dst...); err != nil {
		return ImportJob{}, err
	}
	if items {
		if err := json.Unmarshal(uns, &j.Unsupported); err != nil {
			return ImportJob{}, err
		}
	}
	if entries {
		if err := json.Unmarshal(ents, &j.Entries); err != nil {
			return ImportJob{}, err
		}
	}
	return j, nil
}

// cleanImport bounds the Reader-given text of a job before it is stored:
// every line is cut in characters (safetext) and an unsupported item in
// bytes too, and only the first MaxStoredProblems items are kept, the
// rest counted.
func cleanImport(j *ImportJob) {
	j.Source = safetext.URL(j.Source)
	for i := range j.Entries {
		e := &j.Entries[i]
		e.Item, e.URL, e.Title = safetext.Line(e.Item), safetext.URL(e.URL), GivenTitle(e.Title)
	}
	j.UnsupportedCount = max(j.UnsupportedCount, len(j.Unsupported))
	if len(j.Unsupported) > MaxStoredProblems {
		j.Unsupported = j.Unsupported[:MaxStoredProblems:MaxStoredProblems]
	}
	for i := range j.Unsupported {
		p := &j.Unsupported[i]
		p.Item = cutBytes(safetext.Line(p.Item), maxProblemBytes)
		p.Reason = cutBytes(safetext.Line(p.Reason), maxProblemBytes)
	}
	if j.Unsupported == nil {
		j.Unsupported = []ImportProblem{}
	}
	if j.Entries == nil {
		j.Entries = []ImportEntry{}
	}
}

// cutBytes cuts s to at most n bytes on a character boundary.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// ErrTooManyImports refuses a new import while the Reader already has
// MaxImportsKept imports running or waiting: those are never pruned (their
// entries are still to be applied), so the cap is what bounds them.
var ErrTooManyImports = errors.New("store: too many unfinished imports")

// CreateImport stores a new job and sets its ID. The whole job is written
// in one statement, so a failed import never leaves part of a record. In
// the same transaction the Reader's finished imports past the newest
// MaxImportsKept are deleted; a Reader with MaxImportsKept unfinished
// imports gets ErrTooManyImports and nothing is written.
func (s *Store) CreateImport(ctx context.Context, j *ImportJob) error {
	cleanImport(j)
	ents, err := json.Marshal(j.Entries)
	if err != nil {
		return fmt.Errorf("store: create import: %w", err)
	}
	uns, err := json.Marshal(j.Unsupported)
	if err != nil {
		return fmt.Errorf("store: create import: %w", err)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// The Reader's row lock orders two imports of the same Reader, so
		// the count below cannot be raced past the cap.
		if _, err := tx.Exec(ctx, `SELECT 1 FROM readers WHERE id = $1 FOR UPDATE`, j.ReaderID); err != nil {
			return err
		}
		var unfinished int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM import_jobs WHERE reader_id = $1 AND state IN ('running', 'waiting')`,
			j.ReaderID).Scan(&unfinished); err != nil {
			return err
		}
		if unfinished >= MaxImportsKept {
			return ErrTooManyImports
		}
		if err := tx.QueryRow(ctx, `
			INSERT INTO import_jobs (reader_id, kind, state, source, total, added, already, progress_applied, waiting,
				entries, unsupported, unsupported_dropped, next_at, due_at, created_at, finished_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
			RETURNING id`, j.ReaderID, j.Kind, j.State, j.Source, j.Total, j.Added, j.Already, j.ProgressApplied,
			j.Waiting, ents, uns, j.UnsupportedCount-len(j.Unsupported), j.NextAt, j.DueAt, j.CreatedAt, j.FinishedAt).Scan(&j.ID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
			DELETE FROM import_jobs WHERE reader_id = $1 AND state IN ('done', 'failed')
			AND id NOT IN (SELECT id FROM import_jobs WHERE reader_id = $1 ORDER BY id DESC LIMIT $2)`,
			j.ReaderID, MaxImportsKept)
		return err
	})
	if err != nil {
		j.ID = 0
		return fmt.Errorf("store: create import: %w", err)
	}
	return nil
}

// SaveImport writes a job's state, counts, entries and problems back.
func (s *Store) SaveImport(ctx context.Context, j *ImportJob) error {
	cleanImport(j)
	ents, err := json.Marshal(j.Entries)
	if err != nil {
		return fmt.Errorf("store: save import: %w", err)
	}
	uns, err := json.Marshal(j.Unsupported)
	if err != nil {
		return fmt.Errorf("store: save import: %w", err)
	}
	tag, err := s.pool.Exec(ctx, `
		UPDATE import_jobs SET state = $2, source = $3, total = $4, added = $5, already = $6,
			progress_applied = $7, waiting = $8, entries = $9, unsupported = $10, unsupported_dropped = $11,
			next_at = $12, due_at = $13, finished_at = $14
		WHERE id = $1`, j.ID, j.State, j.Source, j.Total, j.Added, j.Already, j.ProgressApplied, j.Waiting,
		ents, uns, j.UnsupportedCount-len(j.Unsupported), j.NextAt, j.DueAt, j.FinishedAt)
	if err != nil {
		return fmt.Errorf("store: save import: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

// GetImport returns one of a Reader's imports with its kept unsupported
// items (and its entries when asked), or ErrNotFound, also for another
// Reader's import.
func (s *Store) GetImport(ctx context.Context, readerID, id int64, entries bool) (ImportJob, error) {
	cols := importColumns + ", unsupported"
	if entries {
		cols += ", entries"
	}
	j, err := scanImport(s.pool.QueryRow(ctx, `SELECT `+cols+` FROM import_jobs WHERE id = $1 AND reader_id = $2`, id, readerID), true, entries)
	if err != nil {
		return ImportJob{}, notFound("get import", err)
	}
	return j, nil
}

// ListImports returns a Reader's latest imports (at most 100), newest first,
// without their entries or unsupported items (UnsupportedCount says how
// many): a listing reads a few hundred bytes a row, whatever the imports
// held.
func (s *Store) ListImports(ctx context.Context, readerID int64) ([]ImportJob, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+importColumns+` FROM import_jobs WHERE reader_id = $1 ORDER BY id DESC LIMIT 100`, readerID)
	if err != nil {
		return nil, fmt.Errorf("store: list imports: %w", err)
	}
	defer rows.Close()
	out := []ImportJob{}
	for rows.Next() {
		j, err := scanImport(rows, false, false)
		if err != nil {
			return nil, fmt.Errorf("store: list imports: %w", err)
		}
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list imports: %w", err)
	}
	return out, nil
}

// ClaimDueImports takes up to limit unfinished jobs whose due_at is at or
// before now, moving their due_at to now+lease so no other process takes
// them meanwhile, and returns them with their entries.
func (s *Store) ClaimDueImports(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]ImportJob, error) {
	rows, err := s.pool.Query(ctx, `
		UPDATE import_jobs SET due_at = $2
		WHERE id IN (SELECT id FROM import_jobs
			WHERE state IN ('running', 'waiting') AND due_at <= $1
			ORDER BY due_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
		RETURNING `+importColumns+`, unsupported, entries`, now, now.Add(lease), limit)
	if err != nil {
		return nil, fmt.Errorf("store: claim imports: %w", err)
	}
	defer rows.Close()
	var out []ImportJob
	for rows.Next() {
		j, err := scanImport(rows, true, true)
		if err != nil {
			return nil, fmt.Errorf("store: claim imports: %w", err)
		}
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: claim imports: %w", err)
	}
	return out, nil
}
