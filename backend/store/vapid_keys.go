package store

import (
	"context"
	"errors"
	"fmt"
)

// VAPIDKeys is the server's one VAPID key pair (RFC 8292), both halves
// base64url without padding as webpush-go writes them. PrivateKey is a
// secret: it never reaches a log or an error.
type VAPIDKeys struct {
	PublicKey  string
	PrivateKey string
}

// EnsureVAPIDKeys returns the stored key pair, storing gen's first if none
// is stored yet. Two replicas that start at once may both generate a pair:
// the insert keeps whichever commits first (ON CONFLICT DO NOTHING) and
// both read that one back, so every replica signs with the same key.
func (s *Store) EnsureVAPIDKeys(ctx context.Context, gen func() (VAPIDKeys, error)) (VAPIDKeys, error) {
	var k VAPIDKeys
	err := s.pool.QueryRow(ctx, `SELECT public_key, private_key FROM vapid_keys WHERE id = 1`).Scan(&k.PublicKey, &k.PrivateKey)
	if err == nil {
		return k, nil
	}
	if err := notFound("vapid keys", err); !errors.Is(err, ErrNotFound) {
		return VAPIDKeys{}, err
	}
	fresh, err := gen()
	if err != nil {
		return VAPIDKeys{}, fmt.Errorf("store: vapid keys: generate: %w", err)
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO vapid_keys (id, public_key, private_key) VALUES (1, $1, $2)
		ON CONFLICT (id) DO NOTHING`, fresh.PublicKey, fresh.PrivateKey); err != nil {
		return VAPIDKeys{}, fmt.Errorf("store: vapid keys: insert: %w", err)
	}
	if err := s.pool.QueryRow(ctx, `SELECT public_key, private_key FROM vapid_keys WHERE id = 1`).Scan(&k.PublicKey, &k.PrivateKey); err != nil {
		return VAPIDKeys{}, fmt.Errorf("store: vapid keys: read back: %w", err)
	}
	return k, nil
}
