package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultDigestS is a Reader's digest window until they set one.
const DefaultDigestS = 900

// NotifySettings is one reader_notify row; a Reader without one reads as
// the defaults (digest 900 s, every outlet off, no feed token).
type NotifySettings struct {
	ReaderID      int64
	DigestS       int
	Discord       bool
	NtfyURL       string
	WebhookURL    string
	WebhookSecret string // never logged; signs the webhook body
	FeedNonce     []byte // the feed token is derived from it (nil: no feed yet)
}

// NotifyChange is a partial update: nil fields keep the stored value.
type NotifyChange struct {
	DigestS       *int
	Discord       *bool
	NtfyURL       *string
	WebhookURL    *string
	WebhookSecret *string
}

// GetNotify returns the Reader's notice settings (defaults when unset).
func (s *Store) GetNotify(ctx context.Context, readerID int64) (NotifySettings, error) {
	n := NotifySettings{ReaderID: readerID, DigestS: DefaultDigestS}
	err := s.pool.QueryRow(ctx, `SELECT digest_s, discord, ntfy_url, webhook_url, webhook_secret, feed_nonce
		FROM reader_notify WHERE reader_id = $1`, readerID).
		Scan(&n.DigestS, &n.Discord, &n.NtfyURL, &n.WebhookURL, &n.WebhookSecret, &n.FeedNonce)
	if errors.Is(err, pgx.ErrNoRows) {
		return n, nil
	}
	if err != nil {
		return n, fmt.Errorf("store: get notify: %w", err)
	}
	return n, nil
}

// PutNotify applies c to the Reader's settings and returns them as stored.
// Values are checked by the caller (backend/readernotice); the table's checks
// are the last line.
func (s *Store) PutNotify(ctx context.Context, readerID int64, c NotifyChange) (NotifySettings, error) {
	_, err := s.pool.Exec(ctx, `
		INSERT INTO reader_notify (reader_id, digest_s, discord, ntfy_url, webhook_url, webhook_secret)
		VALUES ($1, coalesce($2, 900), coalesce($3, false), coalesce($4, ''), coalesce($5, ''), coalesce($6, ''))
		ON CONFLICT (reader_id) DO UPDATE SET
			digest_s = coalesce($2, reader_notify.digest_s),
			discord = coalesce($3, reader_notify.discord),
			ntfy_url = coalesce($4, reader_notify.ntfy_url),
			webhook_url = coalesce($5, reader_notify.webhook_url),
			webhook_secret = coalesce($6, reader_notify.webhook_secret),
			updated_at = now()`,
		readerID, c.DigestS, c.Discord, c.NtfyURL, c.WebhookURL, c.WebhookSecret)
	if err != nil {
		return NotifySettings{}, fmt.Errorf("store: put notify: %w", err)
	}
	// A URL set again starts its stopped outlet: the Reader has seen why
	// it stopped and says it works now.
	var restart []string
	if c.NtfyURL != nil && *c.NtfyURL != "" {
		restart = append(restart, "ntfy")
	}
	if c.WebhookURL != nil && *c.WebhookURL != "" {
		restart = append(restart, "webhook")
	}
	if len(restart) > 0 {
		if _, err := s.pool.Exec(ctx, `UPDATE notify_outlets SET stopped_at = NULL, failing_since = NULL
			WHERE reader_id = $1 AND outlet = ANY($2) AND stopped_at IS NOT NULL`, readerID, restart); err != nil {
			return NotifySettings{}, fmt.Errorf("store: put notify: %w", err)
		}
	}
	return s.GetNotify(ctx, readerID)
}

// SetFeedToken stores a new feed nonce and the HMAC of the token derived
// from it, replacing any previous one (the old token stops matching).
func (s *Store) SetFeedToken(ctx context.Context, readerID int64, nonce, hmac []byte) error {
	_, err := s.pool.Exec(ctx, `
		INSERT INTO reader_notify (reader_id, feed_nonce, feed_hmac) VALUES ($1, $2, $3)
		ON CONFLICT (reader_id) DO UPDATE SET feed_nonce = $2, feed_hmac = $3, updated_at = now()`,
		readerID, nonce, hmac)
	if err != nil {
		return fmt.Errorf("store: set feed token: %w", err)
	}
	return nil
}

// ReaderByFeedHMAC returns the Reader whose feed token has this HMAC, or
// ErrNotFound.
func (s *Store) ReaderByFeedHMAC(ctx context.Context, hmac []byte) (Reader, error) {
	r, err := scanReader(s.pool.QueryRow(ctx, `SELECT r.id, r.discord_id, r.name, r.created_at, r.last_login_at
		FROM reader_notify n JOIN readers r ON r.id = n.reader_id WHERE n.feed_hmac = $1`, hmac))
	if err != nil {
		return Reader{}, notFound("reader by feed", err)
	}
	return r, nil
}

// GetReader returns one Reader by id, or ErrNotFound.
func (s *Store) GetReader(ctx context.Context, id int64) (Reader, error) {
	r, err := scanReader(s.pool.QueryRow(ctx, `SELECT `+readerColumns+` FROM readers WHERE id = $1`, id))
	if err != nil {
		return Reader{}, notFound("get reader", err)
	}
	return r, nil
}

// OutletHealth is one notify_outlets row.
type OutletHealth struct {
	Outlet       string
	LastOKAt     *time.Time
	LastError    string
	FailingSince *time.Time
	Dropped      int // Digests given up after 24 h of failures
	// StoppedAt is when the outlet's receiver refused it for good (HTTP
	// 401, 403, 404 or 410): nothing is sent to it until the Reader sets
	// its URL again. LastError says why.
	StoppedAt *time.Time
}

// ListOutletHealth returns the health rows of a Reader's outlets.
func (s *Store) ListOutletHealth(ctx context.Context, readerID int64) ([]OutletHealth, error) {
	rows, err := s.pool.Query(ctx, `SELECT outlet, last_ok_at, last_error, failing_since, dropped, stopped_at
		FROM notify_outlets WHERE reader_id = $1 ORDER BY outlet`, readerID)
	if err != nil {
		return nil, fmt.Errorf("store: outlet health: %w", err)
	}
	defer rows.Close()
	out := []OutletHealth{}
	for rows.Next() {
		var h OutletHealth
		if err := rows.Scan(&h.Outlet, &h.LastOKAt, &h.LastError, &h.FailingSince, &h.Dropped, &h.StoppedAt); err != nil {
			return nil, fmt.Errorf("store: outlet health: %w", err)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: outlet health: %w", err)
	}
	return out, nil
}

// NotifyTarget is what the sender needs of one Reader to send: who they
// are, their settings now and their push endpoints.
type NotifyTarget struct {
	Reader   Reader
	Settings NotifySettings
	Push     []string
	Stopped  []string // the outlets a receiver refused for good (StopOutlet)
}

// NotifyTargets loads the targets of many Readers in three statements; a
// Reader who no longer exists is absent from the map.
func (s *Store) NotifyTargets(ctx context.Context, ids []int64) (map[int64]*NotifyTarget, error) {
	out := map[int64]*NotifyTarget{}
	rows, err := s.pool.Query(ctx, `SELECT `+readerColumns+` FROM readers WHERE id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("store: notify targets: %w", err)
	}
	for rows.Next() {
		r, err := scanReader(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: notify targets: %w", err)
		}
		out[r.ID] = &NotifyTarget{Reader: r, Settings: NotifySettings{ReaderID: r.ID, DigestS: DefaultDigestS}}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: notify targets: %w", err)
	}
	rows, err = s.pool.Query(ctx, `SELECT reader_id, digest_s, discord, ntfy_url, webhook_url, webhook_secret, feed_nonce
		FROM reader_notify WHERE reader_id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("store: notify targets: %w", err)
	}
	for rows.Next() {
		var n NotifySettings
		if err := rows.Scan(&n.ReaderID, &n.DigestS, &n.Discord, &n.NtfyURL, &n.WebhookURL, &n.WebhookSecret, &n.FeedNonce); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: notify targets: %w", err)
		}
		if t := out[n.ReaderID]; t != nil {
			t.Settings = n
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: notify targets: %w", err)
	}
	rows, err = s.pool.Query(ctx, `SELECT reader_id, endpoint FROM push_subscriptions WHERE reader_id = ANY($1) ORDER BY id`, ids)
	if err != nil {
		return nil, fmt.Errorf("store: notify targets: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var e string
		if err := rows.Scan(&id, &e); err != nil {
			return nil, fmt.Errorf("store: notify targets: %w", err)
		}
		if t := out[id]; t != nil {
			t.Push = append(t.Push, e)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: notify targets: %w", err)
	}
	stopped, err := collectStopped(ctx, s.pool, ids)
	if err != nil {
		return nil, fmt.Errorf("store: notify targets: %w", err)
	}
	for id, outs := range stopped {
		if t := out[id]; t != nil {
			t.Stopped = outs
		}
	}
	return out, nil
}
