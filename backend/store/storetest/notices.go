package storetest

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// NotifyOpts describe a Reader's notice settings (a reader_notify row).
type NotifyOpts struct {
	ReaderID      int64
	DigestS       int // the digest window in seconds; 0: each notice at once
	Discord       bool
	NtfyURL       string
	WebhookURL    string
	WebhookSecret string
}

// NotifySettings inserts notice settings in one statement, failing the
// test on error.
func NotifySettings(ctx context.Context, tb testing.TB, st *store.Store, os ...NotifyOpts) {
	tb.Helper()
	n := len(os)
	reader, digest, discord := make([]int64, n), make([]int32, n), make([]bool, n)
	ntfy, hook, secret := make([]string, n), make([]string, n), make([]string, n)
	for i, o := range os {
		reader[i], digest[i], discord[i] = o.ReaderID, int32(o.DigestS), o.Discord
		ntfy[i], hook[i], secret[i] = o.NtfyURL, o.WebhookURL, o.WebhookSecret
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO reader_notify (reader_id, digest_s, discord, ntfy_url, webhook_url, webhook_secret)
		SELECT * FROM unnest($1::bigint[], $2::int[], $3::bool[], $4::text[], $5::text[], $6::text[])`,
		reader, digest, discord, ntfy, hook, secret); err != nil {
		tb.Fatalf("storetest: %d notice settings: %v", n, err)
	}
}

// OutletOpts describe the health of one of a Reader's outlets.
type OutletOpts struct {
	ReaderID     int64
	Outlet       string // discord, ntfy, webhook or push
	FailingSince *time.Time
	LastError    string
	LastOKAt     *time.Time
}

// Outlet records an outlet's health, failing the test on error.
func Outlet(ctx context.Context, tb testing.TB, st *store.Store, o OutletOpts) {
	tb.Helper()
	if _, err := st.Pool().Exec(ctx, `INSERT INTO notify_outlets (reader_id, outlet, failing_since, last_error, last_ok_at)
		VALUES ($1, $2, $3, $4, $5)`, o.ReaderID, o.Outlet, o.FailingSince, o.LastError, o.LastOKAt); err != nil {
		tb.Fatalf("storetest: outlet %d %s: %v", o.ReaderID, o.Outlet, err)
	}
}

// DeliveryOpts describe one Digest to one outlet (a notice_deliveries row).
type DeliveryOpts struct {
	ReaderID  int64
	Outlet    string     // discord, ntfy, webhook or push
	Target    string     // a push subscription's endpoint; default ""
	Payload   string     // JSON; default {}
	CreatedAt *time.Time // also first_seen and next_at; nil: the database's now()
	SentAt    *time.Time // nil: not sent
}

// Delivery inserts a delivery, failing the test on error.
func Delivery(ctx context.Context, tb testing.TB, st *store.Store, o DeliveryOpts) {
	tb.Helper()
	if o.Payload == "" {
		o.Payload = "{}"
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO notice_deliveries (reader_id, outlet, target, payload, first_seen, created_at, next_at, sent_at, webhook_id)
		SELECT $1, $2, $3, $4::jsonb, c, c, c, $6, $7 FROM coalesce($5::timestamptz, now()) AS c`,
		o.ReaderID, o.Outlet, o.Target, o.Payload, o.CreatedAt, o.SentAt, store.NewWebhookID()); err != nil {
		tb.Fatalf("storetest: delivery %d %s: %v", o.ReaderID, o.Outlet, err)
	}
}

// SeenSet dates every Chapter Event and every notice owed for one.
type SeenSet struct {
	At time.Time
}

// SetSeen moves when every Chapter Event and owed notice was seen (to let a
// digest window pass without waiting), failing the test on error or when
// there is no event.
func SetSeen(ctx context.Context, tb testing.TB, st *store.Store, o SeenSet) {
	tb.Helper()
	var events int64
	if err := st.Pool().QueryRow(ctx, `WITH e AS (UPDATE chapter_events SET seen_at = $1 RETURNING 1),
			n AS (UPDATE reader_notices SET seen_at = $1 RETURNING 1)
		SELECT (SELECT count(*) FROM e) + 0 * (SELECT count(*) FROM n)`, o.At).Scan(&events); err != nil {
		tb.Fatalf("storetest: set seen: %v", err)
	}
	if events == 0 {
		tb.Fatalf("storetest: set seen: no Chapter Event")
	}
}
