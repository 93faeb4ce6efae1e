package trackers

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"time"

	"mangabookmark/backend/config"
)

// DefaultStateTTL is how long an OAuth state may wait for its callback.
const DefaultStateTTL = 10 * time.Minute

// maxStateTTL is the longest TTL NewStates accepts.
const maxStateTTL = time.Hour

const (
	stateNonceLen = 16
	stateLen      = 8 + stateNonceLen + sha256.Size
)

// States makes and checks the OAuth state of a tracker's Connect flow. A
// state is its expiry, a random nonce and an HMAC (under a key derived
// from TOKEN_KEY) over the tracker, the Reader's session and both, so the
// server stores nothing for it and a state made for one session, tracker
// or ten minutes ago is refused. Safe for concurrent use.
type States struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

// StatesConfig configures States.
type StatesConfig struct {
	TokenKey []byte // TOKEN_KEY; at least config.MinTokenKeyLen bytes
	// TTL is how long a state holds (0: DefaultStateTTL); negative or over
	// an hour is refused.
	TTL time.Duration
	Now func() time.Time // nil: time.Now
}

// NewStates builds States, or an error naming the field that cannot work.
// No error quotes the key.
func NewStates(cfg StatesConfig) (*States, error) {
	switch {
	case len(cfg.TokenKey) < config.MinTokenKeyLen:
		return nil, fmt.Errorf("trackers: new states: StatesConfig.TokenKey (TOKEN_KEY) is %d bytes; use at least %d", len(cfg.TokenKey), config.MinTokenKeyLen)
	case cfg.TTL < 0 || cfg.TTL > maxStateTTL:
		return nil, fmt.Errorf("trackers: new states: StatesConfig.TTL %s is outside 0..%s", cfg.TTL, maxStateTTL)
	}
	if cfg.TTL == 0 {
		cfg.TTL = DefaultStateTTL
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	key, err := hkdf.Key(sha256.New, cfg.TokenKey, nil, stateInfo, 32)
	if err != nil {
		return nil, fmt.Errorf("trackers: new states: derive key: %w", err)
	}
	return &States{key: key, ttl: cfg.TTL, now: cfg.Now}, nil
}

func (s *States) mac(service, session string, head []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	// Lengths first, so no two (service, session) pairs write the same bytes.
	var n [8]byte
	for _, part := range []string{service, session} {
		binary.BigEndian.PutUint64(n[:], uint64(len(part)))
		m.Write(n[:])
		m.Write([]byte(part))
	}
	m.Write(head)
	return m.Sum(nil)
}

// Make returns a state for service's Connect flow started in session (the
// Reader's web session, as the caller names it; never shown in the state).
func (s *States) Make(service, session string) (string, error) {
	head := make([]byte, 8+stateNonceLen)
	binary.BigEndian.PutUint64(head, uint64(s.now().Add(s.ttl).Unix()))
	if _, err := rand.Read(head[8:]); err != nil {
		return "", fmt.Errorf("trackers: make oauth state: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(append(head, s.mac(service, session, head)...)), nil
}

// Check accepts state only when Make made it for service and session and
// it has not expired; otherwise ErrBadState, and the caller exchanges no
// code.
func (s *States) Check(service, session, state string) error {
	raw, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil || len(raw) != stateLen {
		return fmt.Errorf("trackers: check oauth state: %w", ErrBadState)
	}
	head, sum := raw[:8+stateNonceLen], raw[8+stateNonceLen:]
	if !hmac.Equal(sum, s.mac(service, session, head)) {
		return fmt.Errorf("trackers: check oauth state: %w", ErrBadState)
	}
	exp := int64(binary.BigEndian.Uint64(head[:8]))
	if s.now().Unix() >= exp {
		return fmt.Errorf("trackers: check oauth state: %w", ErrBadState)
	}
	return nil
}
