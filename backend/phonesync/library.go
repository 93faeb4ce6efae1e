package phonesync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

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
// ETag (else store.ErrSyncConflict, nothing written), then reads it in
// (Ingest) and records the result. A library Ingest cannot read is kept
// and answered as SyncYomi does; only its result says it was not read.
func (s *Service) Put(ctx context.Context, readerID int64, library []byte, received int64, ifMatch *string) (PutResult, error) {
	etag, err := NewETag(s.cfg.Rand)
	if err != nil {
		return PutResult{}, err
	}
	sealed, err := s.Seal(readerID, library)
	if err != nil {
		return PutResult{}, err
	}
	now := s.cfg.Now()
	if err := s.cfg.Store.PutSyncLibrary(ctx, readerID, ifMatch, store.SyncLibrary{Sealed: sealed, ETag: etag,
		ReceivedBytes: received, StoredBytes: int64(len(library)), UploadedAt: now}); err != nil {
		return PutResult{}, err
	}
	out := PutResult{ETag: etag}
	res, err := s.Ingest(ctx, readerID, library)
	switch {
	case errors.Is(err, ErrUnreadable), errors.Is(err, ErrTooLarge):
		s.cfg.Log.Info("phone sync library stored but not read", "reader_id", readerID, "reason", err.Error())
		return out, nil
	case err != nil:
		// Stored; the next upload reads again.
		s.cfg.Log.Warn("phone sync library stored, reading it failed", "reader_id", readerID, "error", err)
		return out, nil
	}
	out.Result, out.Read = res, true
	if err := s.cfg.Store.SetSyncResult(ctx, readerID, etag, res, s.cfg.Now()); err != nil {
		s.cfg.Log.Warn("phone sync result not recorded", "reader_id", readerID, "error", err)
	}
	s.cfg.Log.Info("phone sync upload", "reader_id", readerID, "bytes", len(library), "manga", res.Manga,
		"matched", res.Matched, "progress_moved", res.ProgressMoved, "bookmarks_added", res.BookmarksAdded, "not_added", res.NotAdded)
	return out, nil
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
