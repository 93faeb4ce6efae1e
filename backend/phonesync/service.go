package phonesync

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"time"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/imports/tachibk"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
)

// Bounds of one upload, as an import has them: the body as sent
// (imports.MaxBodyBytes) and once inflated (tachibk's default cap).
const (
	DefaultMaxBody     = imports.MaxBodyBytes
	DefaultMaxInflated = tachibk.DefaultMaxInflated
)

// Pace of uploads per sync key: a burst of DefaultBurst, then one per
// DefaultPace. A client syncs on every chapter read, app start and
// resume; this is far above that and far below a loop.
const (
	DefaultPace  = 5 * time.Second
	DefaultBurst = 6
)

// sealPurpose names the key the stored libraries are sealed under
// (derived from TOKEN_KEY; trackers.NewSealerFor).
const sealPurpose = "phone sync library"

// Config is the service's collaborators and settings.
type Config struct {
	Store *store.Store    // required
	Sites *sites.Registry // required: the Sites a library's manga map to
	// TokenKey is TOKEN_KEY; the stored libraries are sealed under a key
	// derived from it. Required (at least 32 bytes).
	TokenKey []byte
	Now      func() time.Time // nil: time.Now
	Log      *slog.Logger     // nil: discard; never handed a library's bytes
	// MaxBody and MaxInflated cap an upload as sent and inflated (0: the
	// defaults).
	MaxBody, MaxInflated int64
	// Pace and Burst bound uploads per key (0: the defaults).
	Pace  time.Duration
	Burst int
	// Rand is the ETags' randomness (nil: crypto/rand).
	Rand io.Reader
}

// Service is the phone sync. Safe for concurrent use.
type Service struct {
	cfg   Config
	seal  *trackers.Sealer
	gates gates
	salt  []byte // of the read digests (digestSalt)
}

// Result is what reading one upload did.
type Result = store.SyncResult

// Errors of the service; the HTTP face turns each into its status.
var (
	// ErrNothingStored: the Reader has no stored library (404).
	ErrNothingStored = errors.New("phonesync: nothing stored")
	// ErrTooLarge: a body past a cap (413); the error's text says which.
	ErrTooLarge = errors.New("phonesync: too large")
	// ErrBusy: another upload of the same key is in flight (429).
	ErrBusy = errors.New("phonesync: another upload of this key is in progress")
)

// New builds the Service, or says which field of cfg is wrong.
func New(cfg Config) (*Service, error) {
	switch {
	case cfg.Store == nil:
		return nil, errors.New("phonesync: new: Store is required")
	case cfg.Sites == nil:
		return nil, errors.New("phonesync: new: Sites is required")
	case cfg.MaxBody < 0, cfg.MaxInflated < 0, cfg.Pace < 0, cfg.Burst < 0:
		return nil, errors.New("phonesync: new: caps and pace must not be negative")
	}
	seal, err := trackers.NewSealerFor(cfg.TokenKey, sealPurpose)
	if err != nil {
		return nil, fmt.Errorf("phonesync: new: %w", err)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxBody == 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.MaxInflated == 0 {
		cfg.MaxInflated = DefaultMaxInflated
	}
	if cfg.Pace == 0 {
		cfg.Pace = DefaultPace
	}
	if cfg.Burst == 0 {
		cfg.Burst = DefaultBurst
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Reader
	}
	return &Service{cfg: cfg, seal: seal, gates: newGates(cfg.Pace, cfg.Burst), salt: digestSalt(cfg.Sites)}, nil
}

// MaxBody is the cap on an upload as sent.
func (s *Service) MaxBody() int64 { return s.cfg.MaxBody }

// MaxInflated is the cap on an upload once inflated.
func (s *Service) MaxInflated() int64 { return s.cfg.MaxInflated }

// binding ties a sealed library to its Reader's row.
func binding(readerID int64) string { return "phone_sync:" + strconv.FormatInt(readerID, 10) }

// Seal seals a Reader's library for its row: gzipped (a library shrinks
// about five times, and the database writes that much less), then sealed.
func (s *Service) Seal(readerID int64, library []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		return nil, fmt.Errorf("phonesync: seal: %w", err)
	}
	if _, err := zw.Write(library); err != nil {
		return nil, fmt.Errorf("phonesync: seal: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("phonesync: seal: %w", err)
	}
	b, err := s.seal.SealBytes(buf.Bytes(), binding(readerID))
	if err != nil {
		return nil, fmt.Errorf("phonesync: seal: %w", err)
	}
	return b, nil
}

// Open opens a Reader's sealed library and inflates it (within
// MaxInflated).
func (s *Service) Open(readerID int64, sealed []byte) ([]byte, error) {
	b, err := s.seal.OpenBytes(sealed, binding(readerID))
	if err != nil {
		return nil, fmt.Errorf("phonesync: open stored library: %w", err)
	}
	// gzip's trailer says the inflated size (mod 2^32): the buffer is
	// made that large at once.
	var size int64
	if len(b) >= 4 {
		size = int64(binary.LittleEndian.Uint32(b[len(b)-4:]))
	}
	plain, err := ReadBodySized(bytes.NewReader(b), true, size, int64(len(b)), s.cfg.MaxInflated)
	if err != nil {
		return nil, fmt.Errorf("phonesync: open stored library: %w", err)
	}
	return plain, nil
}

// NewETag mints an ETag as the SyncYomi server does: "uuid=" and a
// random UUID (version 4), unquoted.
func NewETag(r io.Reader) (string, error) {
	var u [16]byte
	if _, err := io.ReadFull(r, u[:]); err != nil {
		return "", fmt.Errorf("phonesync: etag: %w", err)
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("uuid=%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16]), nil
}
