package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/safetext"
)

// Phone sync's rows (migration 0020): a Reader's one sync key (a token of
// scope sync), the one stored library, sealed by the caller, and the
// devices seen. The library's bytes stay sealed here; only
// backend/phonesync opens them.

// ErrSyncConflict is a library write whose If-Match names another ETag
// than the stored one, or names one when nothing is stored (412).
var ErrSyncConflict = errors.New("store: the stored library has another ETag")

// MaxSyncDevices is how many devices one Reader's sync remembers; a new
// one past it forgets the one that synced longest ago.
const MaxSyncDevices = 20

// MaxSyncDeviceID is the longest device id or name stored, in bytes.
const MaxSyncDeviceID = 128

// SyncResult is what reading one upload did (the last_result of GET
// /api/me/sync).
type SyncResult struct {
	Manga          int `json:"manga"`
	Matched        int `json:"matched"`
	ProgressMoved  int `json:"progress_moved"`
	BookmarksAdded int `json:"bookmarks_added"`
	NotAdded       int `json:"not_added"`
	// NotAddedItems names, for the Reader, what did not fit (at most
	// MaxStoredProblems).
	NotAddedItems []ImportProblem `json:"not_added_items,omitempty"`
}

// SyncDevice is one device that synced.
type SyncDevice struct {
	ID, Name   string
	LastSyncAt time.Time
}

// SyncState is a Reader's phone sync as the settings card shows it.
type SyncState struct {
	Enabled      bool // a live sync key exists
	AddFavorites bool
	Devices      []SyncDevice // most recent first
	LastUploadAt *time.Time   // the last v1 upload or v2 merge
	StoredBytes  int64        // the v1 library inflated and the v2 library's sealed items
	LastResult   *SyncResult
}

// SyncLibrary is the stored library, sealed.
type SyncLibrary struct {
	Sealed        []byte
	ETag          string
	ReceivedBytes int64 // as the PUT body came (gzip or raw)
	StoredBytes   int64 // inflated
	UploadedAt    time.Time
	// Digest is the library's digest, sealed by the caller (nil: none):
	// an upload of the same bytes renews the stored one (RenewSyncLibrary).
	Digest []byte
}

// InsertSyncKey stores a new sync key's HMAC for a Reader, revoking the
// Reader's live sync key (at most one stands), and makes the Reader's
// phone_sync row when there is none. It returns the token row.
func (s *Store) InsertSyncKey(ctx context.Context, readerID int64, hmac []byte, at time.Time) (Token, error) {
	var id int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM readers WHERE id = $1 FOR UPDATE`, readerID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE tokens SET revoked_at = $2
			WHERE reader_id = $1 AND scope = 'sync' AND revoked_at IS NULL`, readerID, at); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `INSERT INTO tokens (reader_id, name, hmac, created_at, scope)
			VALUES ($1, 'phone sync', $2, $3, 'sync') RETURNING id`, readerID, hmac, at).Scan(&id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO phone_sync (reader_id) VALUES ($1) ON CONFLICT DO NOTHING`, readerID)
		return err
	})
	if err != nil {
		return Token{}, fmt.Errorf("store: insert sync key: %w", err)
	}
	return s.GetToken(ctx, id)
}

// DeleteSync revokes the Reader's sync key at `at` and deletes the stored
// library and the devices. The settings (add_favorites) and the day
// counts stay. It reports whether a key was live.
func (s *Store) DeleteSync(ctx context.Context, readerID int64, at time.Time) (bool, error) {
	var revoked int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE tokens SET revoked_at = $2
			WHERE reader_id = $1 AND scope = 'sync' AND revoked_at IS NULL`, readerID, at)
		if err != nil {
			return err
		}
		revoked = tag.RowsAffected()
		if _, err := tx.Exec(ctx, `DELETE FROM phone_sync_devices WHERE reader_id = $1`, readerID); err != nil {
			return err
		}
		// The protocol v2 library (migration 0021) goes with the v1 one.
		if _, err := tx.Exec(ctx, `DELETE FROM sync_v2_libraries WHERE reader_id = $1`, readerID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE phone_sync SET library_sealed = NULL, etag = '', received_bytes = 0,
			stored_bytes = 0, read_digests = NULL, library_digest = NULL, last_upload_at = NULL, last_result = NULL, updated_at = $2 WHERE reader_id = $1`, readerID, at)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("store: delete sync: %w", err)
	}
	return revoked > 0, nil
}

// GetSyncState returns the Reader's phone sync for the settings card.
func (s *Store) GetSyncState(ctx context.Context, readerID int64) (SyncState, error) {
	st := SyncState{AddFavorites: true}
	var result []byte
	err := s.pool.QueryRow(ctx, `SELECT
			EXISTS (SELECT 1 FROM tokens WHERE reader_id = $1 AND scope = 'sync' AND revoked_at IS NULL),
			coalesce(p.add_favorites, true), p.last_upload_at,
			coalesce(p.stored_bytes, 0) + coalesce((SELECT stored_bytes FROM sync_v2_libraries WHERE reader_id = $1), 0),
			p.last_result
		FROM (SELECT) one LEFT JOIN phone_sync p ON p.reader_id = $1`, readerID).
		Scan(&st.Enabled, &st.AddFavorites, &st.LastUploadAt, &st.StoredBytes, &result)
	if err != nil {
		return SyncState{}, fmt.Errorf("store: sync state: %w", err)
	}
	if len(result) > 0 {
		var r SyncResult
		if err := json.Unmarshal(result, &r); err != nil {
			return SyncState{}, fmt.Errorf("store: sync state: %w", err)
		}
		st.LastResult = &r
	}
	rows, err := s.pool.Query(ctx, `SELECT device_id, name, last_sync_at FROM phone_sync_devices
		WHERE reader_id = $1 ORDER BY last_sync_at DESC, device_id`, readerID)
	if err != nil {
		return SyncState{}, fmt.Errorf("store: sync state: %w", err)
	}
	st.Devices, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (SyncDevice, error) {
		var d SyncDevice
		return d, r.Scan(&d.ID, &d.Name, &d.LastSyncAt)
	})
	if err != nil {
		return SyncState{}, fmt.Errorf("store: sync state: %w", err)
	}
	return st, nil
}

// SetSyncAddFavorites sets whether the Reader's phone favourites become
// bookmarks; a change makes the next upload read every manga again.
func (s *Store) SetSyncAddFavorites(ctx context.Context, readerID int64, on bool) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO phone_sync (reader_id, add_favorites) VALUES ($1, $2)
		ON CONFLICT (reader_id) DO UPDATE SET add_favorites = excluded.add_favorites,
			read_digests = CASE WHEN phone_sync.add_favorites = excluded.add_favorites THEN phone_sync.read_digests END,
			updated_at = now()`, readerID, on)
	if err != nil {
		return fmt.Errorf("store: set sync add favorites: %w", err)
	}
	return nil
}

// GetSyncLibrary returns the Reader's stored library, or ErrNotFound when
// nothing is stored.
func (s *Store) GetSyncLibrary(ctx context.Context, readerID int64) (SyncLibrary, error) {
	var l SyncLibrary
	err := s.pool.QueryRow(ctx, `SELECT library_sealed, etag, received_bytes, stored_bytes, last_upload_at
		FROM phone_sync WHERE reader_id = $1 AND library_sealed IS NOT NULL`, readerID).
		Scan(&l.Sealed, &l.ETag, &l.ReceivedBytes, &l.StoredBytes, &l.UploadedAt)
	if err != nil {
		return SyncLibrary{}, notFound("sync library", err)
	}
	return l, nil
}

// GetSyncETag returns the stored library's ETag, or ErrNotFound.
func (s *Store) GetSyncETag(ctx context.Context, readerID int64) (string, error) {
	var etag string
	err := s.pool.QueryRow(ctx, `SELECT etag FROM phone_sync WHERE reader_id = $1 AND etag <> ''`, readerID).Scan(&etag)
	if err != nil {
		return "", notFound("sync etag", err)
	}
	return etag, nil
}

// PutSyncLibrary replaces the Reader's stored library with l (sealed by
// the caller) when ifMatch is nil or names the stored ETag; otherwise
// nothing is written and the error is ErrSyncConflict (an If-Match when
// nothing is stored is one too). The day's upload count goes up.
func (s *Store) PutSyncLibrary(ctx context.Context, readerID int64, ifMatch *string, l SyncLibrary) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO phone_sync (reader_id) VALUES ($1) ON CONFLICT DO NOTHING`, readerID); err != nil {
			return err
		}
		var cur string
		if err := tx.QueryRow(ctx, `SELECT etag FROM phone_sync WHERE reader_id = $1 FOR UPDATE`, readerID).Scan(&cur); err != nil {
			return err
		}
		if ifMatch != nil && (cur == "" || cur != *ifMatch) {
			return ErrSyncConflict
		}
		if _, err := tx.Exec(ctx, `UPDATE phone_sync SET library_sealed = $2, etag = $3, received_bytes = $4,
				stored_bytes = $5, last_upload_at = $6, updated_at = $6, library_digest = $7 WHERE reader_id = $1`,
			readerID, l.Sealed, l.ETag, l.ReceivedBytes, l.StoredBytes, l.UploadedAt, l.Digest); err != nil {
			return err
		}
		return countSyncDay(ctx, tx, readerID, l.UploadedAt, 1, 0)
	})
	if errors.Is(err, ErrSyncConflict) {
		return ErrSyncConflict
	}
	if err != nil {
		return fmt.Errorf("store: put sync library: %w", err)
	}
	return nil
}

// SetSyncResult records what reading the upload of ETag etag did, unless
// another upload has replaced it since; its moves count towards the
// Reader's total and the day's. digests (sealed by the caller; nil for
// none) is what that reading covered (read_digests, migration 0029): the
// next upload reads in only what it does not cover.
func (s *Store) SetSyncResult(ctx context.Context, readerID int64, etag string, r SyncResult, digests []byte, at time.Time) error {
	b, err := syncResultJSON(r)
	if err != nil {
		return fmt.Errorf("store: set sync result: %w", err)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE phone_sync SET last_result = $3, progress_moved = progress_moved + $4,
				read_digests = $6, updated_at = $5
			WHERE reader_id = $1 AND etag = $2`, readerID, etag, b, r.ProgressMoved, at, digests)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		return countSyncDay(ctx, tx, readerID, at, 0, r.ProgressMoved)
	})
	if err != nil {
		return fmt.Errorf("store: set sync result: %w", err)
	}
	return nil
}

// SetSyncV2Result records what reading a protocol v2 merge's upload did:
// the card's last upload and result, the Reader's and the day's moves and
// the day's uploads, as a v1 upload's.
func (s *Store) SetSyncV2Result(ctx context.Context, readerID int64, r SyncResult, at time.Time) error {
	b, err := syncResultJSON(r)
	if err != nil {
		return fmt.Errorf("store: set sync v2 result: %w", err)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO phone_sync (reader_id, last_upload_at, last_result, progress_moved, updated_at)
				VALUES ($1, $2, $3, $4, $2)
			ON CONFLICT (reader_id) DO UPDATE SET last_upload_at = excluded.last_upload_at,
				last_result = excluded.last_result, progress_moved = phone_sync.progress_moved + excluded.progress_moved,
				updated_at = excluded.updated_at`, readerID, at, b, r.ProgressMoved); err != nil {
			return err
		}
		return countSyncDay(ctx, tx, readerID, at, 1, r.ProgressMoved)
	})
	if err != nil {
		return fmt.Errorf("store: set sync v2 result: %w", err)
	}
	return nil
}

// syncResultJSON is r as last_result stores it (NotAddedItems cut to
// MaxStoredProblems).
func syncResultJSON(r SyncResult) ([]byte, error) {
	if len(r.NotAddedItems) > MaxStoredProblems {
		r.NotAddedItems = r.NotAddedItems[:MaxStoredProblems]
	}
	return json.Marshal(r)
}

// countSyncDay adds uploads and moved to the Reader's count of at's UTC
// day (phone_sync_days); nothing to add writes nothing.
func countSyncDay(ctx context.Context, tx pgx.Tx, readerID int64, at time.Time, uploads, moved int) error {
	if uploads == 0 && moved == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO phone_sync_days (reader_id, day, uploads, progress_moved)
			VALUES ($1, ($2::timestamptz AT TIME ZONE 'UTC')::date, $3, $4)
		ON CONFLICT (day, reader_id) DO UPDATE SET uploads = phone_sync_days.uploads + $3,
			progress_moved = phone_sync_days.progress_moved + $4`, readerID, at, uploads, moved)
	return err
}

// SyncReadIn is what the Reader's phone sync reads an upload with.
type SyncReadIn struct {
	AddFavorites bool   // favourites become bookmarks
	Digests      []byte // sealed digests of what the last reading covered (nil: none)
	// LibraryDigest is the stored library's sealed digest (nil: none or
	// unknown).
	LibraryDigest []byte
}

// GetSyncReadIn returns what the Reader's phone sync reads an upload
// with. A Reader with no phone_sync row has add_favorites on and nothing
// else.
func (s *Store) GetSyncReadIn(ctx context.Context, readerID int64) (SyncReadIn, error) {
	in := SyncReadIn{AddFavorites: true}
	err := s.pool.QueryRow(ctx, `SELECT add_favorites, read_digests, CASE WHEN library_sealed IS NOT NULL THEN library_digest END
		FROM phone_sync WHERE reader_id = $1`, readerID).Scan(&in.AddFavorites, &in.Digests, &in.LibraryDigest)
	if errors.Is(err, pgx.ErrNoRows) {
		return SyncReadIn{AddFavorites: true}, nil
	}
	if err != nil {
		return SyncReadIn{}, fmt.Errorf("store: sync read in: %w", err)
	}
	return in, nil
}

// ForgetSyncLibraryDigest forgets the stored library's digest (a library
// that does not open must be stored whole again, never renewed).
func (s *Store) ForgetSyncLibraryDigest(ctx context.Context, readerID int64) error {
	if _, err := s.pool.Exec(ctx, `UPDATE phone_sync SET library_digest = NULL WHERE reader_id = $1`, readerID); err != nil {
		return fmt.Errorf("store: forget sync library digest: %w", err)
	}
	return nil
}

// RenewSyncLibrary is an upload of the very library stored: when the
// stored library's sealed digest is still digest (no other upload
// replaced it since the caller read it) and ifMatch is nil or names the
// stored ETag, the library keeps its bytes and takes the new ETag, size
// as sent and time, and the day's upload count goes up; renewed is false
// when the library was replaced meanwhile (nothing written: store it
// whole). An If-Match that does not match is ErrSyncConflict.
func (s *Store) RenewSyncLibrary(ctx context.Context, readerID int64, ifMatch *string, digest []byte, etag string, received int64, at time.Time) (renewed bool, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var cur string
		var same bool
		err := tx.QueryRow(ctx, `SELECT etag, library_sealed IS NOT NULL AND library_digest = $2
			FROM phone_sync WHERE reader_id = $1 FOR UPDATE`, readerID, digest).Scan(&cur, &same)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if ifMatch != nil && (cur == "" || cur != *ifMatch) {
			return ErrSyncConflict
		}
		if !same {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE phone_sync SET etag = $2, received_bytes = $3, last_upload_at = $4, updated_at = $4
			WHERE reader_id = $1`, readerID, etag, received, at); err != nil {
			return err
		}
		renewed = true
		return countSyncDay(ctx, tx, readerID, at, 1, 0)
	})
	if errors.Is(err, ErrSyncConflict) {
		return false, ErrSyncConflict
	}
	if err != nil {
		return false, fmt.Errorf("store: renew sync library: %w", err)
	}
	return renewed, nil
}

// SeeSyncDevice records that device id (cut to MaxSyncDeviceID, as is its
// name) synced at `at`; past MaxSyncDevices the device that synced
// longest ago is forgotten. A Reader with no phone_sync row (sync never
// enabled) records nothing.
func (s *Store) SeeSyncDevice(ctx context.Context, readerID int64, id, name string, at time.Time) error {
	id, name = cutBytes(safetext.Line(id), MaxSyncDeviceID), cutBytes(safetext.Line(name), MaxSyncDeviceID)
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO phone_sync_devices (reader_id, device_id, name, last_sync_at)
			SELECT reader_id, $2, $3, $4 FROM phone_sync WHERE reader_id = $1
			ON CONFLICT (reader_id, device_id) DO UPDATE SET name = CASE WHEN excluded.name = '' THEN phone_sync_devices.name ELSE excluded.name END,
				last_sync_at = greatest(phone_sync_devices.last_sync_at, excluded.last_sync_at)`, readerID, id, name, at)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM phone_sync_devices WHERE reader_id = $1 AND device_id IN (
			SELECT device_id FROM phone_sync_devices WHERE reader_id = $1
			ORDER BY last_sync_at DESC, device_id OFFSET $2)`, readerID, MaxSyncDevices)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: see sync device: %w", err)
	}
	return nil
}
