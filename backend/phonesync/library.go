package phonesync

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"

	"mangabookmark/backend/imports/tachibk"
	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
)

// Device is what a request says of the phone: SyncYomi's newer clients
// send X-Device-ID and X-Device-Name; the stable ones send neither.
type Device struct{ ID, Name string }

// DeviceFrom reads the device headers. An id or name longer than
// store.MaxSyncDeviceID bytes, or not UTF-8 text, is not a device id this
// server keeps: ok is false and the sync goes on without it.
func DeviceFrom(h http.Header) (d Device, ok bool) {
	d = Device{ID: strings.TrimSpace(h.Get("X-Device-ID")), Name: strings.TrimSpace(h.Get("X-Device-Name"))}
	if len(d.ID) > store.MaxSyncDeviceID || !utf8.ValidString(d.ID) {
		return Device{}, false
	}
	if len(d.Name) > store.MaxSyncDeviceID || !utf8.ValidString(d.Name) {
		d.Name = ""
	}
	return d, true
}

// SeeDevice records that the device synced now (a failure is logged,
// never the sync's).
func (s *Service) SeeDevice(ctx context.Context, readerID int64, d Device) {
	if err := s.cfg.Store.SeeSyncDevice(ctx, readerID, d.ID, d.Name, s.cfg.Now()); err != nil {
		s.cfg.Log.Warn("phone sync device not recorded", "reader_id", readerID, "error", err)
	}
}

// PutResult is a stored upload: its new ETag and what reading it did
// (Read is false when the library could not be read: it is stored all
// the same).
type PutResult struct {
	ETag   string
	Result Result
	Read   bool
}

// Put stores library (the inflated body; received is its size as sent)
// as the Reader's one library when ifMatch is nil or names the stored
// ETag (else store.ErrSyncConflict, nothing written), then reads in the
// manga that changed since the last reading (planRead) and records the
// result. A library that cannot be read is kept and answered as SyncYomi
// does; only its result says it was not read.
func (s *Service) Put(ctx context.Context, readerID int64, library []byte, received int64, ifMatch *string) (PutResult, error) {
	etag, err := NewETag(s.cfg.Rand)
	if err != nil {
		return PutResult{}, err
	}
	read, err := s.cfg.Store.GetSyncReadIn(ctx, readerID)
	if err != nil {
		return PutResult{}, fmt.Errorf("phonesync: put: %w", err)
	}
	now := s.cfg.Now()
	sum := libraryDigest(library)
	renewed := false
	if s.sameLibrary(readerID, read.LibraryDigest, sum) {
		// The very bytes stored (an app start): a new ETag, nothing sealed
		// or written again.
		if renewed, err = s.cfg.Store.RenewSyncLibrary(ctx, readerID, ifMatch, read.LibraryDigest, etag, received, now); err != nil {
			return PutResult{}, err
		}
	}
	var sealed, digest []byte
	sealDone := make(chan error, 1)
	if !renewed {
		// Sealing (gzip and AES-GCM over the whole library) runs beside
		// the plan and the decode of what changed, on another core.
		go func() {
			var err error
			if sealed, err = s.Seal(readerID, library); err == nil {
				digest, err = s.seal.SealBytes(binary.BigEndian.AppendUint64(nil, sum), libraryDigestBinding(readerID))
			}
			sealDone <- err
		}()
	}
	in, inErr := s.prepare(readerID, library, read)
	if !renewed {
		if err := <-sealDone; err != nil {
			return PutResult{}, err
		}
		if err := s.cfg.Store.PutSyncLibrary(ctx, readerID, ifMatch, store.SyncLibrary{Sealed: sealed, ETag: etag,
			ReceivedBytes: received, StoredBytes: int64(len(library)), UploadedAt: now, Digest: digest}); err != nil {
			return PutResult{}, err
		}
	}
	out := PutResult{ETag: etag}
	var res Result
	var refused map[store.SyncKey]bool
	if inErr == nil {
		res, refused, err = s.apply(ctx, readerID, in.backup, in.addFavorites)
	} else {
		err = inErr
	}
	switch {
	case errors.Is(err, ErrUnreadable), errors.Is(err, ErrTooLarge):
		s.cfg.Log.Info("phone sync library stored but not read", "reader_id", readerID, "reason", err.Error())
		return out, nil
	case err != nil:
		// Stored; the next upload reads again.
		s.cfg.Log.Warn("phone sync library stored, reading it failed", "reader_id", readerID, "error", err)
		return out, nil
	}
	var digests []byte
	if in.planned {
		res.Manga = in.plan.manga
		res.Matched += in.plan.onSite
		next := nextDigests(in.plan, in.kept, readFlags(in.backup, s.cfg.Sites, refused))
		if digests, err = s.seal.SealBytes(next, digestBinding(readerID)); err != nil {
			digests = nil // read everything next time
		}
	}
	out.Result, out.Read = res, true
	if err := s.cfg.Store.SetSyncResult(ctx, readerID, etag, res, digests, s.cfg.Now()); err != nil {
		s.cfg.Log.Warn("phone sync result not recorded", "reader_id", readerID, "error", err)
	}
	s.cfg.Log.Info("phone sync upload", "reader_id", readerID, "bytes", len(library), "manga", res.Manga,
		"read", len(in.backup.Manga), "matched", res.Matched, "progress_moved", res.ProgressMoved,
		"bookmarks_added", res.BookmarksAdded, "not_added", res.NotAdded)
	return out, nil
}

// readIn is an upload made ready to read in: the part of it to read,
// decoded, and the plan that cut it (planned false: everything is read).
type readIn struct {
	backup       *tachibk.Backup
	addFavorites bool
	planned      bool
	plan         readPlan
	kept         keptDigests
}

// prepare plans and decodes what of library to read in, against the
// digests the Reader's last reading kept.
func (s *Service) prepare(readerID int64, library []byte, read store.SyncReadIn) (readIn, error) {
	in := readIn{addFavorites: read.AddFavorites}
	if len(read.Digests) > 0 {
		if plain, err := s.seal.OpenBytes(read.Digests, digestBinding(readerID)); err == nil {
			in.kept = parseDigests(plain)
		}
	}
	part := library
	if in.plan, in.planned = planRead(library, s.salt, in.kept); in.planned {
		part = in.plan.sub
	}
	var err error
	in.backup, err = s.decode(part)
	if err != nil {
		return readIn{}, err
	}
	if in.planned && len(in.backup.Manga) != len(in.plan.changed) {
		// The reader and the plan disagree on what a manga is: read all.
		in.planned = false
		if in.backup, err = s.decode(library); err != nil {
			return readIn{}, err
		}
	}
	return in, nil
}

// libraryDigest is the 64-bit digest of a whole library's bytes.
func libraryDigest(library []byte) uint64 { return xxhash.Sum64(library) }

// sameLibrary reports whether sealed (the stored library's sealed digest)
// opens to sum.
func (s *Service) sameLibrary(readerID int64, sealed []byte, sum uint64) bool {
	if len(sealed) == 0 {
		return false
	}
	plain, err := s.seal.OpenBytes(sealed, libraryDigestBinding(readerID))
	return err == nil && len(plain) == 8 && binary.BigEndian.Uint64(plain) == sum
}

// libraryDigestBinding ties a Reader's sealed library digest to their row.
func libraryDigestBinding(readerID int64) string {
	return "phone_sync.library_digest:" + strconv.FormatInt(readerID, 10)
}

// digestBinding ties a Reader's sealed digests to their row.
func digestBinding(readerID int64) string {
	return "phone_sync.read_digests:" + strconv.FormatInt(readerID, 10)
}

// Library is the stored library as a GET answers it.
type Library struct {
	Body []byte // the upload's bytes, with reads made elsewhere marked (ReadsOut)
	ETag string // the stored upload's ETag
	// Changed says Body differs from the upload: reads made elsewhere are
	// in it, so an If-None-Match of the ETag is not answered 304.
	Changed bool
}

// Get returns the Reader's stored library with reads made elsewhere
// marked, or ErrNothingStored (also for a library sealed under another
// TOKEN_KEY: the phone then uploads its own again).
func (s *Service) Get(ctx context.Context, readerID int64) (Library, error) {
	l, err := s.cfg.Store.GetSyncLibrary(ctx, readerID)
	if errors.Is(err, store.ErrNotFound) {
		return Library{}, ErrNothingStored
	}
	if err != nil {
		return Library{}, fmt.Errorf("phonesync: get: %w", err)
	}
	plain, err := s.Open(readerID, l.Sealed)
	if errors.Is(err, trackers.ErrSealKeyChanged) || errors.Is(err, trackers.ErrSealBroken) {
		// Sealed under another TOKEN_KEY (or damaged): as if nothing were
		// stored, so the phone uploads its library again (404, then a
		// push with no If-Match).
		s.cfg.Log.Warn("phone sync library cannot be opened; answered as nothing stored", "reader_id", readerID, "error", err)
		if err := s.cfg.Store.ForgetSyncLibraryDigest(ctx, readerID); err != nil {
			s.cfg.Log.Warn("phone sync library digest not forgotten", "reader_id", readerID, "error", err)
		}
		return Library{}, ErrNothingStored
	}
	if err != nil {
		return Library{}, err
	}
	body, err := s.ReadsOut(ctx, readerID, plain)
	if err != nil {
		return Library{}, err
	}
	return Library{Body: body, ETag: l.ETag, Changed: !bytes.Equal(body, plain)}, nil
}
