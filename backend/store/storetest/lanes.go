package storetest

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// FailureOpts describe a failing Series (a poll_failures row); the Series
// must exist.
type FailureOpts struct {
	Site, SeriesID string
	Outcome        string // not_found, no_chapter, unfetchable or errors; default errors
	Since          time.Time
}

// Failure records Series as failing with o.Outcome since o.Since, in one
// statement, replacing the failure each had, failing the test on error.
func Failure(ctx context.Context, tb testing.TB, st *store.Store, os ...FailureOpts) {
	tb.Helper()
	n := len(os)
	site, id, outcome, since := make([]string, n), make([]string, n), make([]string, n), make([]time.Time, n)
	for i, o := range os {
		if o.Outcome == "" {
			o.Outcome = "errors"
		}
		site[i], id[i], outcome[i], since[i] = o.Site, o.SeriesID, o.Outcome, o.Since
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO poll_failures (site, series_id, outcome, failing_since)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])
		ON CONFLICT (site, series_id) DO UPDATE SET outcome = EXCLUDED.outcome, failing_since = EXCLUDED.failing_since`,
		site, id, outcome, since); err != nil {
		tb.Fatalf("storetest: %d failures from %s/%s: %v", n, first(site), first(id), err)
	}
}

// ClearFailure ends a Series' failure (as a good read does), failing the
// test on error or when the Series was not failing.
func ClearFailure(ctx context.Context, tb testing.TB, st *store.Store, o FailureOpts) {
	tb.Helper()
	tag, err := st.Pool().Exec(ctx, `DELETE FROM poll_failures WHERE site = $1 AND series_id = $2`, o.Site, o.SeriesID)
	if err != nil {
		tb.Fatalf("storetest: clear failure %s/%s: %v", o.Site, o.SeriesID, err)
	}
	if tag.RowsAffected() == 0 {
		tb.Fatalf("storetest: clear failure %s/%s: it was not failing", o.Site, o.SeriesID)
	}
}

// LaneOpts describe the Owner's and the Lane's state of one Site (its
// poll_lanes row); a nil field keeps what the row had (nothing, for a new
// row).
type LaneOpts struct {
	Site        string
	PausedUntil *time.Time
	PauseReason string
	RefuseUntil *time.Time // the Site's refusal backoff
}

// Lane writes a Site's Lane state, failing the test on error.
func Lane(ctx context.Context, tb testing.TB, st *store.Store, o LaneOpts) {
	tb.Helper()
	if _, err := st.Pool().Exec(ctx, `INSERT INTO poll_lanes (site, paused_until, pause_reason, refuse_until)
		VALUES ($1, $2, $3, $4)
		ON CONFLICT (site) DO UPDATE SET
			paused_until = coalesce(EXCLUDED.paused_until, poll_lanes.paused_until),
			pause_reason = coalesce(nullif(EXCLUDED.pause_reason, ''), poll_lanes.pause_reason),
			refuse_until = coalesce(EXCLUDED.refuse_until, poll_lanes.refuse_until)`,
		o.Site, o.PausedUntil, o.PauseReason, o.RefuseUntil); err != nil {
		tb.Fatalf("storetest: lane %s: %v", o.Site, err)
	}
}

// Pass records a finished pass through the store's InsertPass (a zero
// FinishedAt is StartedAt), failing the test on error.
func Pass(ctx context.Context, tb testing.TB, st *store.Store, p store.Pass) {
	tb.Helper()
	if p.FinishedAt.IsZero() {
		p.FinishedAt = p.StartedAt
	}
	if _, err := st.InsertPass(ctx, p); err != nil {
		tb.Fatalf("storetest: pass %s: %v", p.Site, err)
	}
}

// HolderSet names the holder of a Site's Lane and how long ago (by the
// database's clock) its last heartbeat was.
type HolderSet struct {
	Site    string
	BeatAgo time.Duration
}

// SetHolder dates the last heartbeat of a Lane's holder BeatAgo back (a
// holder gone silent), failing the test on error or when nothing holds
// the Lane.
func SetHolder(ctx context.Context, tb testing.TB, st *store.Store, o HolderSet) {
	tb.Helper()
	tag, err := st.Pool().Exec(ctx, `UPDATE lane_holders SET beat_at = now() - $2::interval WHERE site = $1`, o.Site, o.BeatAgo)
	if err != nil {
		tb.Fatalf("storetest: holder of %s: %v", o.Site, err)
	}
	if tag.RowsAffected() == 0 {
		tb.Fatalf("storetest: holder of %s: nothing holds the Lane", o.Site)
	}
}

// LaneAge names a Site's Lane and how much time to let pass on it.
type LaneAge struct {
	Site string
	By   time.Duration // how far back its rows move
}

// AgeLane moves a Lane's history By back, as By of a stopped holder
// would: its holder's first sighting and last heartbeat and every pass'
// start and finish, in one statement, failing the test on error or when
// nothing holds the Lane. The Series' checks are SetSeries' to move.
func AgeLane(ctx context.Context, tb testing.TB, st *store.Store, o LaneAge) {
	tb.Helper()
	var holders int64
	if err := st.Pool().QueryRow(ctx, `WITH h AS (
			UPDATE lane_holders SET seen_at = seen_at - $2::interval, beat_at = beat_at - $2::interval WHERE site = $1 RETURNING 1
		), p AS (
			UPDATE poll_passes SET started_at = started_at - $2::interval, finished_at = finished_at - $2::interval WHERE site = $1 RETURNING 1
		)
		SELECT (SELECT count(*) FROM h) + 0 * (SELECT count(*) FROM p)`, o.Site, o.By).Scan(&holders); err != nil {
		tb.Fatalf("storetest: age lane %s: %v", o.Site, err)
	}
	if holders == 0 {
		tb.Fatalf("storetest: age lane %s: nothing holds the Lane", o.Site)
	}
}
