package merge

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"hash"
	"sync"

	"mangabookmark/backend/trackers"
)

// hashInfo names the HKDF output of TOKEN_KEY that keys the item hashes,
// apart from every other key derived from it.
const hashInfo = "mangabookmark phonesync: v2 item key hash v1"

// hashLen is the length kept of each keyed hash (sync_v2_items checks it).
const hashLen = 16

// Crypt seals items at rest and hashes what the store indexes, both
// under keys derived from TOKEN_KEY: sealing is the trackers' Sealer
// (AES-256-GCM, bound to the row), hashing HMAC-SHA256 under its own
// HKDF output. Safe for concurrent use.
type Crypt struct {
	sealer  *trackers.Sealer
	hashKey []byte
	macs    sync.Pool // of hash.Hash: HMAC-SHA256 under hashKey, keyed once
}

// NewCrypt derives Crypt's keys from tokenKey (TOKEN_KEY).
func NewCrypt(tokenKey []byte) (*Crypt, error) {
	s, err := trackers.NewSealerFor(tokenKey, "phonesync v2 items")
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	k, err := hkdf.Key(sha256.New, tokenKey, nil, hashInfo, 32)
	if err != nil {
		return nil, fmt.Errorf("merge: derive hash key: %w", err)
	}
	c := &Crypt{sealer: s, hashKey: k}
	c.macs.New = func() any { return hmac.New(sha256.New, c.hashKey) }
	return c, nil
}

func (c *Crypt) hash(domain string, parts ...[]byte) []byte {
	m := c.macs.Get().(hash.Hash)
	defer c.macs.Put(m)
	m.Reset()
	m.Write([]byte(domain))
	for _, p := range parts {
		m.Write([]byte{0})
		m.Write(p)
	}
	return m.Sum(nil)[:hashLen]
}

// keyHash is the stored key of an item: its kind and key, hashed.
func (c *Crypt) keyHash(k Kind, key string) []byte {
	return c.hash("key", []byte{byte(k)}, []byte(key))
}

// deviceHash is the stored origin of a device id.
func (c *Crypt) deviceHash(device string) []byte {
	return c.hash("device", []byte(device))
}

// digest is the stored hash of an item's sealed content.
func (c *Crypt) digest(envelope []byte) []byte {
	return c.hash("digest", envelope)
}

func binding(reader int64, k Kind, keyHash []byte) string {
	return fmt.Sprintf("syncv2:%d:%d:%x", reader, k, keyHash)
}

func (c *Crypt) seal(reader int64, k Kind, keyHash, envelope []byte) ([]byte, error) {
	return c.sealer.SealBytes(envelope, binding(reader, k, keyHash))
}

func (c *Crypt) open(reader int64, k Kind, keyHash, sealed []byte) ([]byte, error) {
	return c.sealer.OpenBytes(sealed, binding(reader, k, keyHash))
}
