package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Notice is one open owner-notice episode (one row of owner_notices). Site
// is "" for the sidecar-down kind. NotifiedAt is nil until the Owner was
// told.
type Notice struct {
	Kind       string
	Site       string
	OpenedAt   time.Time
	NotifiedAt *time.Time
}

// ListNotices returns every open owner-notice episode, oldest first. It is
// the canonical read behind GET /api/admin/notices.
func (s *Store) ListNotices(ctx context.Context) ([]Notice, error) {
	rows, err := s.pool.Query(ctx, `SELECT kind, site, opened_at, notified_at
		FROM owner_notices ORDER BY opened_at, kind, site`)
	if err != nil {
		return nil, fmt.Errorf("store: list notices: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Notice, error) {
		var n Notice
		err := r.Scan(&n.Kind, &n.Site, &n.OpenedAt, &n.NotifiedAt)
		return n, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: list notices: %w", err)
	}
	return out, nil
}

// OpenNotice makes sure an episode row exists for (kind, site), opened at
// at. An existing row is left as it is (the row's presence is the lock: the
// first Lane to notice writes it, the others find it). It reports whether
// this call created the row.
func (s *Store) OpenNotice(ctx context.Context, kind, site string, at time.Time) (bool, error) {
	tag, err := s.pool.Exec(ctx, `INSERT INTO owner_notices (kind, site, opened_at)
		VALUES ($1, $2, $3) ON CONFLICT (kind, site) DO NOTHING`, kind, site, at)
	if err != nil {
		return false, fmt.Errorf("store: open notice: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// CloseNotice deletes the episode row of (kind, site): the condition no
// longer holds, so a recurrence is a new episode. It reports whether a row
// was there.
func (s *Store) CloseNotice(ctx context.Context, kind, site string) (bool, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM owner_notices WHERE kind = $1 AND site = $2`, kind, site)
	if err != nil {
		return false, fmt.Errorf("store: close notice: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// NotifyNotice tells the Owner about an open, not yet notified episode at
// most once. It locks the row (skipping it when another Lane holds it, so
// concurrent Lanes stay quiet), calls send while holding the lock, and on
// success stamps notified_at = at. When the row is absent, already notified
// or locked elsewhere, send is not called and sent is false. A send error
// leaves notified_at NULL, so the next pass retries; it is returned as is.
func (s *Store) NotifyNotice(ctx context.Context, kind, site string, at time.Time, send func(context.Context) error) (sent bool, err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return false, fmt.Errorf("store: notify notice: %w", err)
	}
	defer func() { _ = tx.Rollback(context.Background()) }()
	var one int
	err = tx.QueryRow(ctx, `SELECT 1 FROM owner_notices
		WHERE kind = $1 AND site = $2 AND notified_at IS NULL
		FOR UPDATE SKIP LOCKED`, kind, site).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: notify notice: %w", err)
	}
	if err := send(ctx); err != nil {
		return false, err
	}
	if _, err := tx.Exec(ctx, `UPDATE owner_notices SET notified_at = $3
		WHERE kind = $1 AND site = $2`, kind, site, at); err != nil {
		return false, fmt.Errorf("store: notify notice: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return false, fmt.Errorf("store: notify notice: %w", err)
	}
	return true, nil
}

// The facts below are what the owner-notice evaluation derives its ages
// from. Nothing about an episode's age is stored: every age comes from
// poll_passes and poll_failures. Passes are ordered by (started_at, id);
// a Site's passes never overlap, so that is the order they ran in.

// StallRun describes a Site's current run of stall passes (due > 0,
// checked = 0, skip empty, refused = 0, unreachable = 0). Passes that carry
// no evidence about the Lane's reads are ignored: they neither start nor
// break a run. Those are the ones skipped as paused (the Owner's act),
// stopped (shutdown), lock_lost (another process runs the Lane) and
// store_error (the database, not the Lane).
type StallRun struct {
	LastSkip  string     // skip of the latest pass, passes skipped as stopped or lock_lost aside
	HasPasses bool       // LastSkip is set: the Site has such a pass
	Passes    int        // stall passes since the latest non-stall pass
	Since     *time.Time // start of the run's first pass; nil when Passes == 0
	Due       int        // due count of the run's latest pass
}

// NoticeStallRun returns the current stall run of site.
func (s *Store) NoticeStallRun(ctx context.Context, site string) (StallRun, error) {
	var r StallRun
	var lastSkip *string
	var due *int32
	err := s.pool.QueryRow(ctx, `
		WITH p AS (
			SELECT id, started_at, due,
				(due > 0 AND checked = 0 AND skip = '' AND refused = 0 AND unreachable = 0) AS stall
			FROM poll_passes
			WHERE site = $1 AND skip NOT IN ('paused', 'stopped', 'lock_lost', 'store_error')
		), brk AS (
			SELECT started_at, id FROM p WHERE NOT stall ORDER BY started_at DESC, id DESC LIMIT 1
		)
		SELECT
			(SELECT skip FROM poll_passes WHERE site = $1 AND skip NOT IN ('stopped', 'lock_lost')
				ORDER BY started_at DESC, id DESC LIMIT 1),
			count(*), min(started_at),
			(array_agg(due ORDER BY started_at DESC, id DESC))[1]
		FROM p
		WHERE NOT EXISTS (SELECT 1 FROM brk) OR (started_at, id) > (SELECT started_at, id FROM brk)`,
		site).Scan(&lastSkip, &r.Passes, &r.Since, &due)
	if err != nil {
		return StallRun{}, fmt.Errorf("store: stall run: %w", err)
	}
	if lastSkip != nil {
		r.HasPasses, r.LastSkip = true, *lastSkip
	}
	if due != nil {
		r.Due = int(*due)
	}
	return r, nil
}

// RefusalRun describes a Site's current run of refusing passes: passes
// where the Site gave no answer (ok + not_found + no_chapter + unfetchable
// = 0) and either refused a read or were skipped by the refusal gate,
// counted since the latest pass in which the Site answered a read. Other
// passes (paused, nothing due, errors only) are neutral.
type RefusalRun struct {
	Passes      int
	Since       *time.Time // start of the run's first refusing pass
	Last        *time.Time // start of the run's latest refusing pass
	RefuseUntil *time.Time // poll_lanes.refuse_until, nil when never set
}

// NoticeRefusalRun returns the current refusing run of site.
func (s *Store) NoticeRefusalRun(ctx context.Context, site string) (RefusalRun, error) {
	var r RefusalRun
	err := s.pool.QueryRow(ctx, `
		WITH brk AS (
			SELECT started_at, id FROM poll_passes
			WHERE site = $1 AND ok + not_found + no_chapter + unfetchable > 0
			ORDER BY started_at DESC, id DESC LIMIT 1
		)
		SELECT count(*), min(started_at), max(started_at),
			(SELECT refuse_until FROM poll_lanes WHERE site = $1)
		FROM poll_passes
		WHERE site = $1 AND ok + not_found + no_chapter + unfetchable = 0
			AND (refused > 0 OR skip = 'refusing')
			AND (NOT EXISTS (SELECT 1 FROM brk) OR (started_at, id) > (SELECT started_at, id FROM brk))`,
		site).Scan(&r.Passes, &r.Since, &r.Last, &r.RefuseUntil)
	if err != nil {
		return RefusalRun{}, fmt.Errorf("store: refusal run: %w", err)
	}
	return r, nil
}

// SidecarRun describes, across the given browser Sites, the passes that
// failed to reach the browser sidecar since the latest pass that reached
// it. A pass reached the sidecar when a Site answered at least one read
// through it (ok + not_found + no_chapter + unfetchable + refused > 0); it
// failed to when it was skipped as browser_down or no_browser, or lost the
// sidecar (unreachable > 0) without any such answer. Every other pass
// (asleep, paused, refusing, nothing due, errors only) is neutral.
type SidecarRun struct {
	Series int        // Series held by the browser Sites
	Passes int        // failed passes since the latest reaching pass
	Since  *time.Time // start of the first of them
	Last   *time.Time // start of the latest of them
}

// NoticeSidecarRun returns the current sidecar-unreached run of the
// browser Sites named.
func (s *Store) NoticeSidecarRun(ctx context.Context, browserSites []string) (SidecarRun, error) {
	var r SidecarRun
	err := s.pool.QueryRow(ctx, `
		WITH p AS (
			SELECT started_at, id,
				(ok + not_found + no_chapter + unfetchable + refused > 0) AS reached,
				(skip IN ('browser_down', 'no_browser') OR unreachable > 0) AS missed
			FROM poll_passes WHERE site = ANY($1)
		), brk AS (
			SELECT started_at, id FROM p WHERE reached ORDER BY started_at DESC, id DESC LIMIT 1
		)
		SELECT (SELECT count(*) FROM series WHERE site = ANY($1)),
			count(*), min(started_at), max(started_at)
		FROM p
		WHERE missed AND NOT reached
			AND (NOT EXISTS (SELECT 1 FROM brk) OR (started_at, id) > (SELECT started_at, id FROM brk))`,
		browserSites).Scan(&r.Series, &r.Passes, &r.Since, &r.Last)
	if err != nil {
		return SidecarRun{}, fmt.Errorf("store: sidecar run: %w", err)
	}
	return r, nil
}

// FailureShare counts a Site's Series and, for the one failure outcome
// (not_found, no_chapter, unfetchable or errors) whose rows at least as old
// as cutoff are the most numerous, how many there are. Outcome is "" when
// the Site holds no such row. Since is the failing_since that made that
// outcome's share pass one half: the (Series/2 + 1)-th oldest of its rows,
// nil when fewer rows exist. AtHalf is the (Series+1)/2-th oldest (the same
// row when Series is odd), so the caller's threshold alone decides which of
// the two counts is the first that qualifies. Only one outcome can hold
// more than half the Series, since a Series has at most one failure row.
type FailureShare struct {
	Series  int
	Outcome string
	Failing int
	Since   *time.Time
	AtHalf  *time.Time
}

// NoticeFailureShare returns site's largest same-outcome failure share at
// cutoff (ties broken by the outcome's name, so the answer is stable).
func (s *Store) NoticeFailureShare(ctx context.Context, site string, cutoff time.Time) (FailureShare, error) {
	var r FailureShare
	err := s.pool.QueryRow(ctx, `
		WITH n AS (SELECT count(*) AS c FROM series WHERE site = $1),
		f AS (
			SELECT outcome, failing_since,
				row_number() OVER (PARTITION BY outcome ORDER BY failing_since) AS rn
			FROM poll_failures
			WHERE site = $1 AND failing_since <= $2
				AND outcome IN ('not_found', 'no_chapter', 'unfetchable', 'errors')
		), top AS (
			SELECT f.outcome, count(*) AS failing,
				max(f.failing_since) FILTER (WHERE f.rn = n.c / 2 + 1) AS since,
				max(f.failing_since) FILTER (WHERE f.rn = greatest((n.c + 1) / 2, 1)) AS at_half
			FROM f, n GROUP BY f.outcome
			ORDER BY count(*) DESC, f.outcome LIMIT 1
		)
		SELECT n.c, coalesce(top.outcome, ''), coalesce(top.failing, 0), top.since, top.at_half
		FROM n LEFT JOIN top ON true`, site, cutoff).Scan(&r.Series, &r.Outcome, &r.Failing, &r.Since, &r.AtHalf)
	if err != nil {
		return FailureShare{}, fmt.Errorf("store: failure share: %w", err)
	}
	return r, nil
}

// Silence is what the watchdog reads of one Lane: when its latest pass row
// finished and when its holder last beat (lane_holders.seen_at, the Lane's
// clock). Each is nil when there is none.
type Silence struct {
	LastPass *time.Time
	LastBeat *time.Time
}

// NoticeSilence reads the Site's Silence: one probe of
// poll_passes_site_started_idx and one of lane_holders.
func (s *Store) NoticeSilence(ctx context.Context, site string) (Silence, error) {
	var r Silence
	err := s.pool.QueryRow(ctx, `SELECT
		(SELECT finished_at FROM poll_passes WHERE site = $1 ORDER BY started_at DESC, id DESC LIMIT 1),
		(SELECT seen_at FROM lane_holders WHERE site = $1)`, site).Scan(&r.LastPass, &r.LastBeat)
	if err != nil {
		return Silence{}, fmt.Errorf("store: notice silence: %w", err)
	}
	return r, nil
}
