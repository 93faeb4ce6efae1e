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
	return newSealer(tokenKey, sealInfo, sealCheckInfo)
}

// NewSealerFor is NewSealer for another purpose than tracker tokens
// (for example "phone sync library"): the same construction under a key
// of its own, derived from TOKEN_KEY with HKDF info strings naming the
// purpose, so what one purpose sealed never opens under another. Use
// SealBytes and OpenBytes with it.
func NewSealerFor(tokenKey []byte, purpose string) (*Sealer, error) {
	if purpose == "" {
		return nil, errors.New("trackers: new sealer: a purpose is required")
	}
	return newSealer(tokenKey, "mangabookmark "+purpose+": seal key v1", "mangabookmark "+purpose+": seal key check v1")
}

func newSealer(tokenKey []byte, info, checkInfo string) (*Sealer, error) {
	if len(tokenKey) < config.MinTokenKeyLen {
		return nil, fmt.Errorf("trackers: new sealer: TOKEN_KEY is %d bytes; tokens can be sealed only under one of at least %d", len(tokenKey), config.MinTokenKeyLen)
	}
	key, err := hkdf.Key(sha256.New, tokenKey, nil, info, 32)
	if err != nil {
		return nil, fmt.Errorf("trackers: new sealer: derive key: %w", err)
	}
	check, err := hkdf.Key(sha256.New, tokenKey, nil, checkInfo, sealCheckLen)
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

// SealBytes seals plain (any length GCM takes, empty included) for the
// row binding names; OpenBytes must be given the same binding.
func (s *Sealer) SealBytes(plain []byte, binding string) ([]byte, error) {
	h := s.header()
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("trackers: seal: nonce: %w", err)
	}
	out := make([]byte, 0, len(h)+len(nonce)+len(plain)+s.aead.Overhead())
	out = append(append(out, h...), nonce...)
	return s.aead.Seal(out, nonce, plain, s.aad(h, binding)), nil
}

// OpenBytes returns what SealBytes sealed for binding, with Open's
// errors (ErrSealKeyChanged, ErrSealBroken); no error quotes the bytes.
func (s *Sealer) OpenBytes(sealed []byte, binding string) ([]byte, error) {
	hl, ns := 1+sealCheckLen, s.aead.NonceSize()
	if len(sealed) < hl+ns+s.aead.Overhead() || sealed[0] != sealVersion {
		return nil, fmt.Errorf("trackers: open: %w", ErrSealBroken)
	}
	if subtle.ConstantTimeCompare(sealed[1:hl], s.check) != 1 {
		return nil, fmt.Errorf("trackers: open: %w", ErrSealKeyChanged)
	}
	plain, err := s.aead.Open(nil, sealed[hl:hl+ns], sealed[hl+ns:], s.aad(sealed[:hl], binding))
	if err != nil {
		return nil, fmt.Errorf("trackers: open: %w", ErrSealBroken)
	}
	return plain, nil
}

// Seal seals token for the row binding names (for example
// "reader:42:anilist"); Open must be given the same binding.
func (s *Sealer) Seal(token, binding string) ([]byte, error) {
	if token == "" || len(token) > maxSealedToken {
		return nil, fmt.Errorf("trackers: seal token: a token must be 1 to %d bytes", maxSealedToken)
	}
	return s.SealBytes([]byte(token), binding)
}

// Open returns the token sealed for binding: ErrSealKeyChanged when it
// was sealed under another TOKEN_KEY, ErrSealBroken when it was damaged or
// sealed for another binding. No error quotes the token.
func (s *Sealer) Open(sealed []byte, binding string) (string, error) {
	plain, err := s.OpenBytes(sealed, binding)
	if err != nil {
		return "", fmt.Errorf("trackers: open token: %w", errors.Unwrap(err))
	}
	return string(plain), nil
}
