package trackers

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

var (
	keyA = []byte(strings.Repeat("a", 32))
	keyB = []byte(strings.Repeat("b", 32))
)

// secretToken is a token no error text may quote.
const secretToken = "eyJ0eXAiOiJKV1Qi.sekrit-anilist-token.sig"

func mustSealer(t *testing.T, key []byte) *Sealer {
	t.Helper()
	s, err := NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSealRoundTrip(t *testing.T) {
	t.Parallel()
	s := mustSealer(t, keyA)
	sealed, err := s.Seal(secretToken, "reader:42:anilist")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte("sekrit")) {
		t.Fatal("the sealed bytes hold the token in the clear")
	}
	again, _ := s.Seal(secretToken, "reader:42:anilist")
	if bytes.Equal(sealed, again) {
		t.Fatal("two seals of one token are equal: the nonce is not fresh")
	}
	got, err := mustSealer(t, keyA).Open(sealed, "reader:42:anilist")
	if err != nil || got != secretToken {
		t.Fatalf("Open = %q, %v", got, err)
	}
}

func TestSealTamperRefused(t *testing.T) {
	t.Parallel()
	s := mustSealer(t, keyA)
	sealed, _ := s.Seal(secretToken, "reader:42:anilist")
	for i := range sealed {
		bad := bytes.Clone(sealed)
		bad[i] ^= 0x01
		_, err := s.Open(bad, "reader:42:anilist")
		if err == nil {
			t.Fatalf("byte %d flipped: opened", i)
		}
		if i >= 1+sealCheckLen && !errors.Is(err, ErrSealBroken) {
			t.Fatalf("byte %d flipped: %v, want ErrSealBroken", i, err)
		}
	}
	for _, cut := range [][]byte{nil, sealed[:1], sealed[:len(sealed)-1]} {
		if _, err := s.Open(cut, "reader:42:anilist"); !errors.Is(err, ErrSealBroken) {
			t.Fatalf("cut to %d bytes: %v", len(cut), err)
		}
	}
	if _, err := s.Open(sealed, "reader:43:anilist"); !errors.Is(err, ErrSealBroken) {
		t.Fatalf("another row's binding: %v", err)
	}
}

func TestSealWrongKey(t *testing.T) {
	t.Parallel()
	sealed, _ := mustSealer(t, keyA).Seal(secretToken, "reader:42:anilist")
	_, err := mustSealer(t, keyB).Open(sealed, "reader:42:anilist")
	if !errors.Is(err, ErrSealKeyChanged) {
		t.Fatalf("Open under another TOKEN_KEY: %v, want ErrSealKeyChanged", err)
	}
}

// TestSealKeyIsNotTokenKey: the seal key is derived, not TOKEN_KEY
// itself, and not the OAuth state key.
func TestSealKeyIsNotTokenKey(t *testing.T) {
	t.Parallel()
	if sealInfo == stateInfo || sealInfo == sealCheckInfo || stateInfo == sealCheckInfo {
		t.Fatal("two derived keys share an HKDF info string")
	}
	s := mustSealer(t, keyA)
	sealed, _ := s.Seal(secretToken, "b")
	other, err := NewSealer(keyA)
	if err != nil {
		t.Fatal(err)
	}
	// An AES-GCM built straight on TOKEN_KEY's first 32 bytes must not open it.
	raw := &Sealer{aead: rawGCM(t, keyA), check: other.check}
	if _, err := raw.Open(sealed, "b"); err == nil {
		t.Fatal("TOKEN_KEY itself opens the seal: the key is not derived")
	}
}

func TestSealErrorsNeverQuoteTheToken(t *testing.T) {
	t.Parallel()
	s := mustSealer(t, keyA)
	sealed, _ := s.Seal(secretToken, "x")
	_, e1 := mustSealer(t, keyB).Open(sealed, "x")
	_, e2 := s.Open(sealed[:len(sealed)-2], "x")
	_, e3 := s.Seal(strings.Repeat(secretToken, 2000), "x")
	_, e4 := NewSealer([]byte("sekrit-short-key"))
	for _, err := range []error{e1, e2, e3, e4} {
		if err == nil {
			t.Fatal("no error")
		}
		if strings.Contains(err.Error(), "sekrit") {
			t.Fatalf("error quotes a secret: %v", err)
		}
	}
}

func mustStates(t *testing.T, now func() time.Time) *States {
	t.Helper()
	s, err := NewStates(StatesConfig{TokenKey: keyA, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStates(t *testing.T) {
	t.Parallel()
	now := t0
	s := mustStates(t, func() time.Time { return now })
	state, err := s.Make("anilist", "session-1")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(state, "session-1") {
		t.Fatal("the state shows the session")
	}
	if err := s.Check("anilist", "session-1", state); err != nil {
		t.Fatalf("own state refused: %v", err)
	}
	bad := map[string]func() error{
		"another session": func() error { return s.Check("anilist", "session-2", state) },
		"another tracker": func() error { return s.Check("mangabaka", "session-1", state) },
		"another key": func() error {
			o, _ := NewStates(StatesConfig{TokenKey: keyB, Now: func() time.Time { return now }})
			return o.Check("anilist", "session-1", state)
		},
		"empty":   func() error { return s.Check("anilist", "session-1", "") },
		"garbage": func() error { return s.Check("anilist", "session-1", "not base64 !") },
		"tampered": func() error {
			c := byte('A')
			if state[0] == c {
				c = 'B'
			}
			return s.Check("anilist", "session-1", string(c)+state[1:])
		},
		"expired": func() error {
			now = t0.Add(DefaultStateTTL)
			defer func() { now = t0 }()
			return s.Check("anilist", "session-1", state)
		},
	}
	for name, check := range bad {
		if err := check(); !errors.Is(err, ErrBadState) {
			t.Errorf("%s: %v, want ErrBadState", name, err)
		}
	}
}

func TestNewStatesValidates(t *testing.T) {
	t.Parallel()
	for name, cfg := range map[string]StatesConfig{
		"short key":    {TokenKey: []byte("short")},
		"negative ttl": {TokenKey: keyA, TTL: -time.Second},
		"long ttl":     {TokenKey: keyA, TTL: 2 * time.Hour},
	} {
		if _, err := NewStates(cfg); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}
