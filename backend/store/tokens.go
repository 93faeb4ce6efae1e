package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/safetext"
)

// Token is one API token without its secret: the table keeps only the
// HMAC, which never leaves the store except for the comparison in auth.
type Token struct {
	ID         int64
	ReaderID   int64
	DiscordID  string // the owning Reader's Discord id
	ReaderName string
	Name       string
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
	// Scope is ScopeReader (every route but the sync routes) or ScopeSync
	// (the sync routes only: a phone's sync key).
	Scope string
}

// Token scopes (migration 0020).
const (
	ScopeReader = "reader"
	ScopeSync   = "sync"
)

// ActiveToken is what authentication needs: the stored HMAC (compared in
// constant time by the caller) and the owning Reader.
type ActiveToken struct {
	Token
	HMAC []byte
}

const tokenColumns = `t.id, t.reader_id, r.discord_id, r.name, t.name, t.created_at, t.last_used_at, t.revoked_at, t.scope`

func scanToken(row scanner, extra ...any) (Token, error) {
	var t Token
	dest := append([]any{&t.ID, &t.ReaderID, &t.DiscordID, &t.ReaderName, &t.Name, &t.CreatedAt, &t.LastUsedAt, &t.RevokedAt, &t.Scope}, extra...)
	err := row.Scan(dest...)
	return t, err
}

// MaxLiveTokens is how many unrevoked tokens (of scope reader; the one
// sync key is apart) one Reader holds: a new
// token past it revokes the oldest (every Discord login mints one, and the
// request budgets are per Reader, so the bound is on what a lost or
// forgotten token can do, not on the Reader's share).
const MaxLiveTokens = 10

// InsertToken stores a new token's HMAC for a Reader and returns the row.
// In the same transaction, under a lock on the Reader's row (so two logins
// at once count each other), the Reader's live tokens past MaxLiveTokens,
// oldest first, are revoked at `at`; the caller's authentication cache
// must forget them (auth clears it on every mint).
func (s *Store) InsertToken(ctx context.Context, readerID int64, name string, hmac []byte, at time.Time) (Token, error) {
	var id int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM readers WHERE id = $1 FOR UPDATE`, readerID); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `
			INSERT INTO tokens (reader_id, name, hmac, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
			readerID, safetext.Line(name), hmac, at).Scan(&id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
			UPDATE tokens SET revoked_at = $2 WHERE id IN (
				SELECT id FROM tokens WHERE reader_id = $1 AND revoked_at IS NULL AND scope = 'reader'
				ORDER BY id DESC OFFSET $3)`, readerID, at, MaxLiveTokens)
		return err
	})
	if err != nil {
		return Token{}, fmt.Errorf("store: insert token: %w", err)
	}
	return s.GetToken(ctx, id)
}

// GetToken returns one token (revoked or not) by id, or ErrNotFound.
func (s *Store) GetToken(ctx context.Context, id int64) (Token, error) {
	t, err := scanToken(s.pool.QueryRow(ctx, `SELECT `+tokenColumns+`
		FROM tokens t JOIN readers r ON r.id = t.reader_id WHERE t.id = $1`, id))
	if err != nil {
		return Token{}, notFound("get token", err)
	}
	return t, nil
}

// ActiveTokenByHMAC finds the unrevoked token with that HMAC, or
// ErrNotFound (unknown and revoked tokens look the same to callers).
func (s *Store) ActiveTokenByHMAC(ctx context.Context, hmac []byte) (ActiveToken, error) {
	var out ActiveToken
	t, err := scanToken(s.pool.QueryRow(ctx, `SELECT `+tokenColumns+`, t.hmac
		FROM tokens t JOIN readers r ON r.id = t.reader_id
		WHERE t.hmac = $1 AND t.revoked_at IS NULL`, hmac), &out.HMAC)
	if err != nil {
		return ActiveToken{}, notFound("token by hmac", err)
	}
	out.Token = t
	return out, nil
}

// TouchToken records a use of the token at `at`, unless a use within
// `every` before it is already recorded: last_used_at is kept to the
// minute, not written on every request.
func (s *Store) TouchToken(ctx context.Context, id int64, at time.Time, every time.Duration) error {
	_, err := s.pool.Exec(ctx, `
		UPDATE tokens SET last_used_at = $2::timestamptz
		WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $2::timestamptz - make_interval(secs => $3::float8))`,
		id, at, every.Seconds())
	if err != nil {
		return fmt.Errorf("store: touch token: %w", err)
	}
	return nil
}

// ListTokens returns every token, newest first.
func (s *Store) ListTokens(ctx context.Context) ([]Token, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+tokenColumns+`
		FROM tokens t JOIN readers r ON r.id = t.reader_id ORDER BY t.id DESC`)
	if err != nil {
		return nil, fmt.Errorf("store: list tokens: %w", err)
	}
	defer rows.Close()
	var out []Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list tokens: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list tokens: %w", err)
	}
	return out, nil
}

// RevokeToken marks a token revoked at `at`. Revoking twice keeps the first
// time. An unknown id is ErrNotFound.
func (s *Store) RevokeToken(ctx context.Context, id int64, at time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE tokens SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1`, id, at)
	if err != nil {
		return fmt.Errorf("store: revoke token: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}
