package store

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Session is a web page session as the pages need it: the Reader, the
// token the session rests on, and when it ends.
type Session struct {
	TokenID    int64
	ReaderID   int64
	DiscordID  string
	ReaderName string
	ExpiresAt  time.Time
}

// SessionHash is the stored form of a session id or login-link code: its
// SHA-256. The id is 32 random bytes, so no key or slow hash is needed.
func SessionHash(id string) []byte {
	sum := sha256.Sum256([]byte(id))
	return sum[:]
}

// CreateSession stores a new session for the token, ending at expires.
func (s *Store) CreateSession(ctx context.Context, idHash []byte, tokenID int64, now, expires time.Time) error {
	// One statement: the new session, and the token's oldest sessions past
	// MaxSessionsPerToken ended (a stolen token cannot pile up sessions).
	if _, err := s.pool.Exec(ctx, `
		WITH ins AS (
			INSERT INTO web_sessions (id_hash, token_id, created_at, expires_at) VALUES ($1, $2, $3, $4)
		)
		DELETE FROM web_sessions WHERE id_hash IN (
			SELECT id_hash FROM web_sessions WHERE token_id = $2
			ORDER BY created_at DESC, id_hash OFFSET $5)`,
		idHash, tokenID, now, expires, MaxSessionsPerToken-1); err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	return nil
}

// MaxSessionsPerToken is how many web sessions one token keeps; starting
// one more ends the oldest.
const MaxSessionsPerToken = 20

// SessionLifetime is a session's absolute lifetime: however often it
// slides, a session created longer ago than this is over.
const SessionLifetime = 90 * 24 * time.Hour

// SessionByHash returns the live session with that id hash: not expired at
// now, created less than SessionLifetime ago, and its token not revoked. Anything else is ErrNotFound.
func (s *Store) SessionByHash(ctx context.Context, idHash []byte, now time.Time) (Session, error) {
	var out Session
	err := s.pool.QueryRow(ctx, `
		SELECT w.token_id, t.reader_id, r.discord_id, r.name, w.expires_at
		FROM web_sessions w
		JOIN tokens t ON t.id = w.token_id AND t.revoked_at IS NULL
		JOIN readers r ON r.id = t.reader_id
		WHERE w.id_hash = $1 AND w.expires_at > $2 AND w.created_at > $3`, idHash, now, now.Add(-SessionLifetime)).
		Scan(&out.TokenID, &out.ReaderID, &out.DiscordID, &out.ReaderName, &out.ExpiresAt)
	if err != nil {
		return Session{}, notFound("session", err)
	}
	return out, nil
}

// ExtendSession moves a session's end to expires (the sliding expiry).
func (s *Store) ExtendSession(ctx context.Context, idHash []byte, expires time.Time) error {
	if _, err := s.pool.Exec(ctx, `UPDATE web_sessions SET expires_at = $2 WHERE id_hash = $1`, idHash, expires); err != nil {
		return fmt.Errorf("store: extend session: %w", err)
	}
	return nil
}

// DeleteSession ends a session (logout). An unknown one is no error.
func (s *Store) DeleteSession(ctx context.Context, idHash []byte) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM web_sessions WHERE id_hash = $1`, idHash); err != nil {
		return fmt.Errorf("store: delete session: %w", err)
	}
	return nil
}

// PurgeSessions deletes the sessions and login links that ended before now.
func (s *Store) PurgeSessions(ctx context.Context, now time.Time) (int64, error) {
	tag, err := s.pool.Exec(ctx, `
		WITH l AS (DELETE FROM web_login_links WHERE expires_at <= $1)
		DELETE FROM web_sessions WHERE expires_at <= $1`, now)
	if err != nil {
		return 0, fmt.Errorf("store: purge sessions: %w", err)
	}
	return tag.RowsAffected(), nil
}

// CreateLoginLink stores a one-time login link for the token.
func (s *Store) CreateLoginLink(ctx context.Context, codeHash []byte, tokenID int64, expires time.Time) error {
	if _, err := s.pool.Exec(ctx, `
		INSERT INTO web_login_links (code_hash, token_id, expires_at) VALUES ($1, $2, $3)`,
		codeHash, tokenID, expires); err != nil {
		return fmt.Errorf("store: create login link: %w", err)
	}
	return nil
}

// ConsumeLoginLink deletes the login link with that code hash and returns
// its token when the link was live and the token unrevoked; a used,
// expired or unknown link is ErrNotFound. A link works once.
func (s *Store) ConsumeLoginLink(ctx context.Context, codeHash []byte, now time.Time) (int64, error) {
	var tokenID int64
	err := s.pool.QueryRow(ctx, `
		WITH l AS (DELETE FROM web_login_links WHERE code_hash = $1 RETURNING token_id, expires_at)
		SELECT l.token_id FROM l JOIN tokens t ON t.id = l.token_id AND t.revoked_at IS NULL
		WHERE l.expires_at > $2`, codeHash, now).Scan(&tokenID)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("store: consume login link: %w", err)
	}
	return tokenID, nil
}
