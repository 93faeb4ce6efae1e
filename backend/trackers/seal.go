package trackers

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"

	"mangabookmark/backend/config"
)

// HKDF info strings: each key derived from TOKEN_KEY has its own, so the
// seal key is neither the API tokens' HMAC key (TOKEN_KEY itself) nor the
// OAuth state key.
const (
	sealInfo      = "mangabookmark trackers: token seal key v1"
	sealCheckInfo = "mangabookmark trackers: token seal key check v1"
	stateInfo     = "mangabookmark trackers: oauth state key v1"
)

// sealVersion is the first byte of a sealed token.
const sealVersion = 1

// sealCheckLen is the key check's length in a sealed token's header.
const sealCheckLen = 8

// maxSealedToken is the longest token Seal takes (an AniList JWT is about
// a kilobyte).
const maxSealedToken = 16 << 10

// MaxSealedBytes is the most SealBytes takes: one item of a phone's
// synced library (a manga with its history) is far below it.
const MaxSealedBytes = 8 << 20

var (
	// ErrSealKeyChanged is returned when the token was sealed under another
	// TOKEN_KEY. It cannot be opened any more; the caller turns the tracker to
	// reconnect (never an error at start).
	ErrSealKeyChanged = errors.New("trackers: the token was sealed under another TOKEN_KEY")
	// ErrSealBroken is returned when the sealed bytes were changed, cut, or
	// belong to another binding (another Reader's or tracker's row).
	ErrSealBroken = errors.New("trackers: the sealed token is damaged or not this row's")
)

// Sealer seals tracker tokens at rest: AES-256-GCM under a key derived
// from TOKEN_KEY with HKDF-SHA256. A sealed token is
//
//	version (1) | key check (8) | nonce (12) | ciphertext and tag
//
// The key check, another HKDF output of the same TOKEN_KEY, tells a
// changed key (ErrSealKeyChanged) from damage (ErrSealBroken); the header
// and the binding (the row the token belongs to) are the GCM additional
// data, so a sealed token copied to another row does not open. Safe for
// concurrent use.
type Sealer struct {
	aead  cipher.AEAD
	check []byte
}

// NewSealer derives the seal key from tokenKey (TOKEN_KEY), or says why
// it cannot: an empty or short key. The error never quotes the key.
func NewSealer(tokenKey []byte) (*Sealer, error) {
	if len(tokenKey) < config.MinTokenKeyLen {
		return nil, fmt.Errorf("trackers: new sealer: TOKEN_KEY is %d bytes; tokens can be sealed only under one of at least %d", len(tokenKey), config.MinTokenKeyLen)
	}
	key, err := hkdf.Key(sha256.New, tokenKey, nil, sealInfo, 32)
	if err != nil {
		return nil, fmt.Errorf("trackers: new sealer: derive key: %w", err)
	}
	check, err := hkdf.Key(sha256.New, tokenKey, nil, sealCheckInfo, sealCheckLen)
	if err != nil {
		return nil, fmt.Errorf("trackers: new sealer: derive key check: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("trackers: new sealer: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("trackers: new sealer: %w", err)
	}
	return &Sealer{aead: aead, check: check}, nil
}

func (s *Sealer) header() []byte {
	return append([]byte{sealVersion}, s.check...)
}

func (s *Sealer) aad(header []byte, binding string) []byte {
	return append(append(append([]byte(nil), header...), 0), binding...)
}

// Seal seals token for the row binding names (for example
// "reader:42:anilist"); Open must be given the same binding.
func (s *Sealer) Seal(token, binding string) ([]byte, error) {
	if token == "" || len(token) > maxSealedToken {
		return nil, fmt.Errorf("trackers: seal token: a token must be 1 to %d bytes", maxSealedToken)
	}
	return s.seal([]byte(token), binding)
}

// SealBytes seals plain (at most MaxSealedBytes, possibly empty) for the
// row binding names, as Seal does a token; OpenBytes opens it.
func (s *Sealer) SealBytes(plain []byte, binding string) ([]byte, error) {
	if len(plain) > MaxSealedBytes {
		return nil, fmt.Errorf("trackers: seal bytes: at most %d bytes", MaxSealedBytes)
	}
	return s.seal(plain, binding)
}

func (s *Sealer) seal(plain []byte, binding string) ([]byte, error) {
	h := s.header()
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("trackers: seal: nonce: %w", err)
	}
	out := make([]byte, 0, len(h)+len(nonce)+len(plain)+s.aead.Overhead())
	out = append(append(out, h...), nonce...)
	return s.aead.Seal(out, nonce, plain, s.aad(h, binding)), nil
}

// Open returns the token sealed for binding: ErrSealKeyChanged when it
// was sealed under another TOKEN_KEY, ErrSealBroken when it was damaged or
// sealed for another binding. No error quotes the token.
func (s *Sealer) Open(sealed []byte, binding string) (string, error) {
	plain, err := s.open(sealed, binding)
	if err != nil {
		return "", fmt.Errorf("trackers: open token: %w", err)
	}
	return string(plain), nil
}

// OpenBytes returns the bytes SealBytes sealed for binding, with Open's
// errors.
func (s *Sealer) OpenBytes(sealed []byte, binding string) ([]byte, error) {
	plain, err := s.open(sealed, binding)
	if err != nil {
		return nil, fmt.Errorf("trackers: open bytes: %w", err)
	}
	return plain, nil
}

func (s *Sealer) open(sealed []byte, binding string) ([]byte, error) {
	hl, ns := 1+sealCheckLen, s.aead.NonceSize()
	if len(sealed) < hl+ns+s.aead.Overhead() || sealed[0] != sealVersion {
		return nil, ErrSealBroken
	}
	if subtle.ConstantTimeCompare(sealed[1:hl], s.check) != 1 {
		return nil, ErrSealKeyChanged
	}
	plain, err := s.aead.Open(nil, sealed[hl:hl+ns], sealed[hl+ns:], s.aad(sealed[:hl], binding))
	if err != nil {
		return nil, ErrSealBroken
	}
	if plain == nil {
		plain = []byte{}
	}
	return plain, nil
}
