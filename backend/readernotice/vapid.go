package readernotice

import (
	"context"
	"crypto/ecdh"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"

	webpush "github.com/SherClockHolmes/webpush-go"

	"mangabookmark/backend/store"
)

// vapid holds the server's VAPID key pair once read: the database keeps
// it (made on first use, the same for every replica), this process keeps
// a copy. The private half is never logged nor put in an error.
type vapid struct {
	store *store.Store
	mu    sync.Mutex
	keys  store.VAPIDKeys
	ok    bool
}

func (v *vapid) get(ctx context.Context) (store.VAPIDKeys, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.ok {
		return v.keys, nil
	}
	k, err := v.store.EnsureVAPIDKeys(ctx, generateVAPID)
	if err != nil {
		return store.VAPIDKeys{}, fmt.Errorf("readernotice: vapid keys: %w", err)
	}
	if _, err := decodePoint(k.PublicKey); err != nil {
		return store.VAPIDKeys{}, errors.New("readernotice: vapid keys: the stored public key is not a P-256 point")
	}
	v.keys, v.ok = k, true
	return k, nil
}

func generateVAPID() (store.VAPIDKeys, error) {
	priv, pub, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		return store.VAPIDKeys{}, errors.New("readernotice: generate vapid keys failed")
	}
	return store.VAPIDKeys{PublicKey: pub, PrivateKey: priv}, nil
}

// PushKey is the VAPID public key (base64url, no padding) a browser
// passes to pushManager.subscribe as its applicationServerKey.
func (s *Service) PushKey(ctx context.Context) (string, error) {
	k, err := s.vapid.get(ctx)
	if err != nil {
		return "", err
	}
	return k.PublicKey, nil
}

// decodeKey reads a browser key in base64url (the form PushSubscription's
// toJSON gives), padded or not, or standard base64.
func decodeKey(s string) ([]byte, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	if b, err := base64.RawURLEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawStdEncoding.DecodeString(s)
}

// decodePoint reads an uncompressed P-256 public key and checks it is on
// the curve.
func decodePoint(s string) ([]byte, error) {
	b, err := decodeKey(s)
	if err != nil {
		return nil, err
	}
	if _, err := ecdh.P256().NewPublicKey(b); err != nil {
		return nil, err
	}
	return b, nil
}
