package store

import (
	"context"
	"fmt"
	"time"
)

// Pass is one poll_passes row: what one Lane pass found and did.
type Pass struct {
	ID          int64
	Site        string
	StartedAt   time.Time
	FinishedAt  time.Time
	Due         int // Series due when the pass began
	Checked     int // Series stamped and read
	OK          int
	New         int // Chapter Events (New Chapters) the pass's good reads recorded
	NotFound    int
	NoChapter   int
	Unfetchable int
	Errors      int
	Refused     int
	Unreachable int
	Skip        string        // "" when the pass ran; otherwise why it returned early
	BehindBy    time.Duration // how long past Rest the oldest due Series had waited
	Listing     bool          // the pass read the Site's listing (docs/adr/0015)
	Hinted      int           // Series that listing read made due
}

const passColumns = `id, site, started_at, finished_at, due, checked, ok, new, not_found, no_chapter,
	unfetchable, errors, refused, unreachable, skip, behind_by_ms, listing, hinted`

func scanPass(row scanner) (Pass, error) {
	var p Pass
	var behindMS int64
	err := row.Scan(&p.ID, &p.Site, &p.StartedAt, &p.FinishedAt, &p.Due, &p.Checked, &p.OK, &p.New,
		&p.NotFound, &p.NoChapter, &p.Unfetchable, &p.Errors, &p.Refused, &p.Unreachable, &p.Skip, &behindMS, &p.Listing, &p.Hinted)
	p.BehindBy = time.Duration(behindMS) * time.Millisecond
	return p, err
}

// InsertPass writes one pass row and returns its id.
func (s *Store) InsertPass(ctx context.Context, p Pass) (int64, error) {
	var id int64
	err := s.pool.QueryRow(ctx, `
		INSERT INTO poll_passes (site, started_at, finished_at, due, checked, ok, new, not_found,
			no_chapter, unfetchable, errors, refused, unreachable, skip, behind_by_ms, listing, hinted)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
		RETURNING id`,
		p.Site, p.StartedAt, p.FinishedAt, p.Due, p.Checked, p.OK, p.New, p.NotFound, p.NoChapter,
		p.Unfetchable, p.Errors, p.Refused, p.Unreachable, p.Skip, p.BehindBy.Milliseconds(), p.Listing, p.Hinted).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store: insert pass: %w", err)
	}
	return id, nil
}

// PrunePasses deletes one Site's pass rows that started before the cutoff
// and reports how many went.
func (s *Store) PrunePasses(ctx context.Context, site string, before time.Time) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM poll_passes WHERE site = $1 AND started_at < $2`, site, before)
	if err != nil {
		return 0, fmt.Errorf("store: prune passes: %w", err)
	}
	return tag.RowsAffected(), nil
}

// ListPasses returns up to limit of a Site's passes, newest first.
func (s *Store) ListPasses(ctx context.Context, site string, limit int) ([]Pass, error) {
	if limit <= 0 {
		limit = 50
	}
	rows, err := s.pool.Query(ctx, `SELECT `+passColumns+` FROM poll_passes
		WHERE site = $1 ORDER BY started_at DESC, id DESC LIMIT $2`, site, limit)
	if err != nil {
		return nil, fmt.Errorf("store: list passes: %w", err)
	}
	defer rows.Close()
	var out []Pass
	for rows.Next() {
		p, err := scanPass(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list passes: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list passes: %w", err)
	}
	return out, nil
}

// LastPass returns the Site's newest pass, or ErrNotFound.
func (s *Store) LastPass(ctx context.Context, site string) (Pass, error) {
	p, err := scanPass(s.pool.QueryRow(ctx, `SELECT `+passColumns+` FROM poll_passes
		WHERE site = $1 ORDER BY started_at DESC, id DESC LIMIT 1`, site))
	if err != nil {
		return Pass{}, notFound("last pass", err)
	}
	return p, nil
}
