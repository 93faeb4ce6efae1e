package readernotice_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"mangabookmark/backend/readernotice"
)

// browser is one subscribed browser as the test plays it: its P-256 key
// pair and auth secret (what PushSubscription.getKey gives a page).
type browser struct {
	priv *ecdh.PrivateKey
	auth []byte
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	return &browser{priv: priv, auth: auth}
}

func (b *browser) sub(endpoint string) readernotice.PushSubscription {
	return readernotice.PushSubscription{Endpoint: endpoint,
		P256dh: base64.RawURLEncoding.EncodeToString(b.priv.PublicKey().Bytes()),
		Auth:   base64.RawURLEncoding.EncodeToString(b.auth)}
}

// decrypt opens an RFC 8291 aes128gcm body with the browser's private key
// and auth secret, as a browser's push client does. It is the test's
// receiver, written from the RFC, independent of the library that
// encrypted.
func (b *browser) decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("body shorter than the aes128gcm header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idlen || idlen != 65 {
		return nil, fmt.Errorf("keyid length %d, want a 65-byte P-256 key", idlen)
	}
	keyid, ct := body[21:21+idlen], body[21+idlen:]
	if uint32(len(ct)) > rs {
		return nil, fmt.Errorf("ciphertext %d bytes spans more than one %d-byte record", len(ct), rs)
	}
	asPub, err := ecdh.P256().NewPublicKey(keyid)
	if err != nil {
		return nil, fmt.Errorf("keyid: %w", err)
	}
	shared, err := b.priv.ECDH(asPub)
	if err != nil {
		return nil, err
	}
	prkKey, err := hkdf.Extract(sha256.New, shared, b.auth)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), b.priv.PublicKey().Bytes()...), keyid...)
	ikm, err := hkdf.Expand(sha256.New, prkKey, string(info), 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	blk, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(blk)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, ct, nil)
	if err != nil {
		return nil, fmt.Errorf("gcm open: %w", err)
	}
	// The last record ends with the delimiter 0x02, then zero padding.
	end := bytes.LastIndexFunc(plain, func(r rune) bool { return r != 0 })
	if end < 0 || plain[end] != 0x02 {
		return nil, errors.New("no last-record delimiter 0x02 before the padding")
	}
	return plain[:end], nil
}

// vapidClaims is the VAPID JWT's claims (RFC 8292 section 2).
type vapidClaims struct {
	Aud string `json:"aud"`
	Exp int64  `json:"exp"`
	Sub string `json:"sub"`
}

// verifyVAPID checks an Authorization header "vapid t=<jwt>, k=<key>":
// k is wantKey and the JWT's ES256 signature verifies under it.
func verifyVAPID(header, wantKey string) (vapidClaims, error) {
	var c vapidClaims
	rest, ok := strings.CutPrefix(header, "vapid ")
	if !ok {
		return c, fmt.Errorf("scheme of %q is not vapid", header)
	}
	var tok, key string
	for _, part := range strings.Split(rest, ",") {
		part = strings.TrimSpace(part)
		if v, ok := strings.CutPrefix(part, "t="); ok {
			tok = v
		} else if v, ok := strings.CutPrefix(part, "k="); ok {
			key = v
		}
	}
	if key != wantKey {
		return c, fmt.Errorf("k=%q, want the served key %q", key, wantKey)
	}
	kb, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil {
		return c, err
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), kb)
	if err != nil {
		return c, err
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return c, errors.New("the token is not a JWS compact serialisation")
	}
	hb, _ := base64.RawURLEncoding.DecodeString(parts[0])
	var hdr struct{ Alg string }
	if err := json.Unmarshal(hb, &hdr); err != nil || hdr.Alg != "ES256" {
		return c, fmt.Errorf("JWT header %s: want alg ES256", hb)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return c, errors.New("the signature is not 64 bytes r||s")
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	if !ecdsa.Verify(pub, sum[:], r, s) {
		return c, errors.New("the ES256 signature does not verify under the served key")
	}
	pb, _ := base64.RawURLEncoding.DecodeString(parts[1])
	if err := json.Unmarshal(pb, &c); err != nil {
		return c, err
	}
	return c, nil
}

// pushService is a local push service: it keeps every message it is sent,
// and answers status (0: 201 Created, as push services do). With a limit,
// it refuses a body over limit bytes with 413 and keeps nothing, as
// Mozilla's push service does above 3070 bytes for Firefox on Android.
type pushService struct {
	*httptest.Server
	mu     sync.Mutex
	got    []received
	status int
	limit  int
}

func newPushService(t *testing.T) *pushService {
	p := &pushService{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h := r.Header.Clone()
		h.Set("X-Path", r.URL.Path)
		p.mu.Lock()
		if p.limit > 0 && len(body) > p.limit {
			p.mu.Unlock()
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			return
		}
		p.got = append(p.got, received{Header: h, Body: body})
		st := p.status
		p.mu.Unlock()
		if st == 0 {
			st = http.StatusCreated
		}
		w.WriteHeader(st)
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *pushService) received() []received {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]received(nil), p.got...)
}

func (p *pushService) setStatus(s int) { p.mu.Lock(); p.status = s; p.mu.Unlock() }

func (p *pushService) setLimit(n int) { p.mu.Lock(); p.limit = n; p.mu.Unlock() }
