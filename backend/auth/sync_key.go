package auth

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"

	"mangabookmark/backend/store"
)

// SyncKeyPrefix starts every sync key (a token of scope sync, the API key
// a phone's SyncYomi client holds), so a leaked one is recognisable and
// never mistaken for an API token.
const SyncKeyPrefix = "mbsync_"

// AuthenticateSync resolves a sync key to the Identity of its Reader
// (Sync set). An API token of scope reader, a malformed, unknown or
// revoked key are all ErrInvalidToken; a store failure wraps
// ErrUnavailable.
func (s *Service) AuthenticateSync(ctx context.Context, key string) (Identity, error) {
	if len(s.key) == 0 || !shaped(key, SyncKeyPrefix) {
		return Identity{}, ErrInvalidToken
	}
	id, err := s.lookup(ctx, key)
	if err == nil && !id.Sync {
		return Identity{}, ErrInvalidToken
	}
	return id, err
}

// MintSyncKey makes a new sync key for the Reader, revoking the one
// before. The plaintext is returned once and never stored or logged.
func (s *Service) MintSyncKey(ctx context.Context, readerID int64) (string, store.Token, error) {
	if len(s.key) == 0 {
		return "", store.Token{}, errors.New("auth: TOKEN_KEY is not set: set it to at least 32 random characters (openssl rand -hex 32)")
	}
	b := make([]byte, tokenBytes)
	if _, err := io.ReadFull(s.rand, b); err != nil {
		return "", store.Token{}, fmt.Errorf("auth: random sync key: %w", err)
	}
	plain := SyncKeyPrefix + base64.RawURLEncoding.EncodeToString(b)
	t, err := s.st.InsertSyncKey(ctx, readerID, s.digest(plain), s.now())
	if err != nil {
		return "", store.Token{}, fmt.Errorf("auth: mint sync key: %w", err)
	}
	s.cache.clear() // the key before is refused from now on
	s.log.Info("sync key minted", "token_id", t.ID, "reader_id", readerID)
	return plain, t, nil
}

// RevokeSync revokes the Reader's sync key and deletes the stored
// library and devices (store.DeleteSync).
func (s *Service) RevokeSync(ctx context.Context, readerID int64) error {
	live, err := s.st.DeleteSync(ctx, readerID, s.now())
	if err != nil {
		return fmt.Errorf("auth: revoke sync key: %w", err)
	}
	s.cache.clear()
	s.log.Info("sync key revoked", "reader_id", readerID, "was_live", live)
	return nil
}
