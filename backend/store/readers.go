package store

import (
	"context"
	"fmt"
	"time"

	"mangabookmark/backend/safetext"
)

// Reader is one row of the readers table: a member of the Discord guild
// (or a Reader minted from the command line) known by Discord id.
type Reader struct {
	ID          int64
	DiscordID   string
	Name        string
	CreatedAt   time.Time
	LastLoginAt *time.Time
}

const readerColumns = `id, discord_id, name, created_at, last_login_at`

func scanReader(row scanner) (Reader, error) {
	var r Reader
	err := row.Scan(&r.ID, &r.DiscordID, &r.Name, &r.CreatedAt, &r.LastLoginAt)
	return r, err
}

// UpsertReader creates the Reader for discordID or updates its name. A
// non-empty name replaces the stored one; an empty one keeps it. When
// loginAt is non-nil it is stored as the last login time.
func (s *Store) UpsertReader(ctx context.Context, discordID, name string, loginAt *time.Time) (Reader, error) {
	row := s.pool.QueryRow(ctx, `
		INSERT INTO readers (discord_id, name, last_login_at) VALUES ($1, $2, $3)
		ON CONFLICT (discord_id) DO UPDATE SET
			name = CASE WHEN excluded.name <> '' THEN excluded.name ELSE readers.name END,
			last_login_at = coalesce(excluded.last_login_at, readers.last_login_at)
		RETURNING `+readerColumns, discordID, safetext.Line(name), loginAt)
	r, err := scanReader(row)
	if err != nil {
		return Reader{}, fmt.Errorf("store: upsert reader: %w", err)
	}
	return r, nil
}

// GetReaderByDiscordID returns the Reader with that Discord id, or ErrNotFound.
func (s *Store) GetReaderByDiscordID(ctx context.Context, discordID string) (Reader, error) {
	r, err := scanReader(s.pool.QueryRow(ctx, `SELECT `+readerColumns+` FROM readers WHERE discord_id = $1`, discordID))
	if err != nil {
		return Reader{}, notFound("get reader", err)
	}
	return r, nil
}

// ListReaders returns every Reader, by id.
func (s *Store) ListReaders(ctx context.Context) ([]Reader, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+readerColumns+` FROM readers ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: list readers: %w", err)
	}
	defer rows.Close()
	var out []Reader
	for rows.Next() {
		r, err := scanReader(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list readers: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list readers: %w", err)
	}
	return out, nil
}
