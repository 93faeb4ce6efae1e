package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// This file holds the Lanes' reads and writes on the series table: what is
// due, the stamp before each fetch and the Owner's Forced Poll (the record
// of a good read is record_ok.go). A Series is due when it was never checked, when it
// was last checked at or before now - Rest, or when a Forced Poll is pending
// (force_poll_at later than latest_checked_at). That cutoff is the only rate
// authority; nothing here joins poll_failures. A slow Series (slow.go)
// rests SlowRest instead.

// DueCountCap bounds each of the two large arms of the due count (never
// checked, and rested), so a pass's count costs the same at 10k and at 1M
// Series. A Lane reads at most a few hundred Series per pass, so it never
// needs to know more than that "thousands" are due; the exact figure for
// the Owner is the admin API's background count.
const DueCountCap = 1000

// DueStats summarises what is due on one Site at one moment.
type DueStats struct {
	// Due counts the Series due now. When AtLeast is set it is a lower
	// bound: an arm of the count stopped at DueCountCap.
	Due     int
	AtLeast bool
	Forced  int // of which a Forced Poll is pending (always exact)
	// NeverChecked counts the due Series never read yet (new bookmarks),
	// bounded like Due.
	NeverChecked int
	// OldestDueSince is when the longest-waiting due Series became due:
	// created_at for a never-checked Series, the Forced Poll time for a
	// forced one, latest_checked_at + Rest otherwise. Nil when nothing is
	// due. Always exact.
	OldestDueSince *time.Time
}

// BehindBy is how long past its due time the oldest due Series has waited
// at now; zero when nothing is due.
func (d DueStats) BehindBy(now time.Time) time.Duration {
	if d.OldestDueSince == nil || !now.After(*d.OldestDueSince) {
		return 0
	}
	return now.Sub(*d.OldestDueSince)
}

// dueSummarySQL is a handful of index probes and two bounded counts, so
// its cost does not grow with the table: never-checked Series
// (series_unchecked_idx) and rested ones (series_due_idx) are counted up to
// the cap, each in its index's order (without the ORDER BY the planner may
// pick a sequential scan that expects to meet the cap early, and reads half
// the table when the due rows sit at its end); pending Forced Polls are few (series_forced_idx) and counted
// exactly, adding those on Series not otherwise due. The oldest due time is
// the least of three ordered probes, exactly as the full scan would find.
const dueSummarySQL = `
	SELECT
		(SELECT count(*) FROM (SELECT 1 FROM series WHERE site = $1 AND latest_checked_at IS NULL
			ORDER BY created_at LIMIT $4) n),
		(SELECT count(*) FROM (SELECT 1 FROM series WHERE site = $1 AND latest_checked_at <= $2
			AND (NOT slow OR latest_checked_at <= $5)
			ORDER BY latest_checked_at NULLS FIRST LIMIT $4) r),
		f.pending, f.extra,
		least(
			(SELECT created_at FROM series WHERE site = $1 AND latest_checked_at IS NULL ORDER BY created_at LIMIT 1),
			(SELECT latest_checked_at FROM series WHERE site = $1 AND latest_checked_at <= $2 AND NOT slow
				ORDER BY latest_checked_at NULLS FIRST LIMIT 1) + $3 * interval '1 microsecond',
			(SELECT latest_checked_at FROM series WHERE site = $1 AND slow AND latest_checked_at <= $5
				ORDER BY latest_checked_at LIMIT 1) + $6 * interval '1 microsecond',
			f.oldest)
	FROM (
		SELECT count(*) AS pending,
			count(*) FILTER (WHERE latest_checked_at > $2 OR (slow AND latest_checked_at > $5)) AS extra,
			min(CASE WHEN latest_checked_at IS NULL THEN created_at
				ELSE least(force_poll_at, latest_checked_at + $3 * interval '1 microsecond') END) AS oldest
		FROM series WHERE site = $1 AND force_poll_at IS NOT NULL
			AND (latest_checked_at IS NULL OR force_poll_at > latest_checked_at)
	) f`

// DueSummary counts the Site's due Series (bounded, see DueCountCap) and
// finds the oldest due time (exact).
func (s *Store) DueSummary(ctx context.Context, site string, rest time.Duration, now time.Time) (DueStats, error) {
	var d DueStats
	var rested, extra int
	slow := slowRest(rest)
	err := s.pool.QueryRow(ctx, dueSummarySQL, site, now.Add(-rest), rest.Microseconds(), DueCountCap,
		now.Add(-slow), slow.Microseconds()).
		Scan(&d.NeverChecked, &rested, &d.Forced, &extra, &d.OldestDueSince)
	if err != nil {
		return DueStats{}, fmt.Errorf("store: due summary: %w", err)
	}
	d.Due = d.NeverChecked + rested + extra
	d.AtLeast = d.NeverChecked >= DueCountCap || rested >= DueCountCap
	return d, nil
}

// DueSeries is one Series a pass will read.
type DueSeries struct {
	SeriesID string
}

// dueBatchSQL reads pending Forced Polls first, then never-checked Series,
// then the longest resting. Never-checked Series are taken round-robin by
// the Reader who caused them (series.created_by): each Reader's oldest
// first, then each Reader's second, and so on, so one Reader's flood of new
// Series cannot hold another Reader's new bookmark back by more than a few
// reads. The Readers with never-checked Series are found by a skip scan of
// series_unchecked_by_idx, and each arm walks an index, so the cost follows
// limit and the number of such Readers, not the size of the table.
const dueBatchSQL = `
	WITH RECURSIVE who AS (
		(SELECT created_by AS r FROM series
			WHERE site = $1 AND latest_checked_at IS NULL AND force_poll_at IS NULL
			ORDER BY created_by LIMIT 1)
		UNION ALL
		SELECT (SELECT created_by FROM series
			WHERE site = $1 AND latest_checked_at IS NULL AND force_poll_at IS NULL AND created_by > who.r
			ORDER BY created_by LIMIT 1)
		FROM who WHERE who.r IS NOT NULL
	)
	SELECT series_id FROM (
		(SELECT 0 AS arm, 0::bigint AS rn, force_poll_at AS k, series_id
			FROM series WHERE site = $1 AND force_poll_at IS NOT NULL
				AND (latest_checked_at IS NULL OR force_poll_at > latest_checked_at)
			ORDER BY force_poll_at, series_id LIMIT $3)
		UNION ALL
		(SELECT 1, n.rn, n.created_at, n.series_id FROM who
			CROSS JOIN LATERAL (
				SELECT created_at, series_id, row_number() OVER (ORDER BY created_at, series_id) AS rn
				FROM (SELECT created_at, series_id FROM series
					WHERE site = $1 AND created_by = who.r AND latest_checked_at IS NULL AND force_poll_at IS NULL
					ORDER BY created_at, series_id LIMIT $3) mine
			) n
			WHERE who.r IS NOT NULL)
		UNION ALL
		(SELECT 2, 0, latest_checked_at, series_id
			FROM series WHERE site = $1 AND latest_checked_at <= $2
				AND (NOT slow OR latest_checked_at <= $4)
				AND (force_poll_at IS NULL OR force_poll_at <= latest_checked_at)
			ORDER BY latest_checked_at NULLS FIRST LIMIT $3)
	) due ORDER BY arm, rn, k, series_id LIMIT $3`

// DueBatch returns up to limit due Series in the order a pass reads them
// (see dueBatchSQL).
func (s *Store) DueBatch(ctx context.Context, site string, rest time.Duration, now time.Time, limit int) ([]DueSeries, error) {
	if limit <= 0 {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, dueBatchSQL, site, now.Add(-rest), limit, now.Add(-slowRest(rest)))
	if err != nil {
		return nil, fmt.Errorf("store: due batch: %w", err)
	}
	defer rows.Close()
	out := make([]DueSeries, 0, min(limit, 1024))
	for rows.Next() {
		var d DueSeries
		if err := rows.Scan(&d.SeriesID); err != nil {
			return nil, fmt.Errorf("store: due batch: %w", err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: due batch: %w", err)
	}
	return out, nil
}

// NextDueAt returns when the Site's next Series becomes due (now when one
// already is); ok is false when the Site has no Series at all.
func (s *Store) NextDueAt(ctx context.Context, site string, rest time.Duration, now time.Time) (next time.Time, ok bool, err error) {
	var pending bool
	var oldest, oldestSlow *time.Time
	err = s.pool.QueryRow(ctx, `
		SELECT EXISTS (SELECT 1 FROM series WHERE site = $1 AND latest_checked_at IS NULL)
			OR EXISTS (SELECT 1 FROM series WHERE site = $1 AND force_poll_at IS NOT NULL AND force_poll_at > latest_checked_at),
			(SELECT latest_checked_at FROM series WHERE site = $1 AND latest_checked_at IS NOT NULL AND NOT slow
				ORDER BY latest_checked_at LIMIT 1),
			(SELECT min(latest_checked_at) FROM series WHERE site = $1 AND slow)`, site).Scan(&pending, &oldest, &oldestSlow)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: next due: %w", err)
	}
	switch {
	case pending:
		return now, true, nil
	case oldest == nil && oldestSlow == nil:
		return time.Time{}, false, nil
	}
	switch {
	case oldest == nil:
		next = oldestSlow.Add(slowRest(rest))
	case oldestSlow == nil:
		next = oldest.Add(rest)
	default:
		next = oldest.Add(rest)
		if s := oldestSlow.Add(slowRest(rest)); s.Before(next) {
			next = s
		}
	}
	if next.Before(now) {
		next = now
	}
	return next, true, nil
}

// RestedDueAt returns when the n-th Series of the Site in Rest order
// falls due (n counts from 1, the Series already due by Rest included):
// latest_checked_at + Rest, or + SlowRest for a slow Series. Never-checked
// Series and Forced Polls are not counted (they open a browser Lane's wake
// gate by themselves). ok is false when the Site has fewer than n checked
// Series. A browser Lane held by its wake gate sleeps until the
// WakeGateDue-th falls due, not longer.
func (s *Store) RestedDueAt(ctx context.Context, site string, rest time.Duration, n int) (at time.Time, ok bool, err error) {
	if n < 1 {
		n = 1
	}
	slow := slowRest(rest)
	err = s.pool.QueryRow(ctx, `
		SELECT d FROM (
			(SELECT latest_checked_at + $2 * interval '1 microsecond' AS d FROM series
				WHERE site = $1 AND latest_checked_at IS NOT NULL AND NOT slow
				ORDER BY latest_checked_at LIMIT $4)
			UNION ALL
			(SELECT latest_checked_at + $3 * interval '1 microsecond' FROM series
				WHERE site = $1 AND slow AND latest_checked_at IS NOT NULL
				ORDER BY latest_checked_at LIMIT $4)
		) x ORDER BY d OFFSET $4 - 1 LIMIT 1`, site, rest.Microseconds(), slow.Microseconds(), n).Scan(&at)
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: rested due: %w", err)
	}
	return at, true, nil
}

// Stamp is what StampChecked replaced: the Series' last check and its
// pending Forced Poll before the stamp, for RestoreChecked.
type Stamp struct {
	At          time.Time  // the stamp written
	PrevChecked *time.Time // latest_checked_at before it
	PrevForce   *time.Time // force_poll_at before it
}

// StampChecked sets latest_checked_at just before a fetch and consumes any
// pending Forced Poll (the read about to happen answers it). It reports
// false when the Series no longer exists.
func (s *Store) StampChecked(ctx context.Context, site, seriesID string, now time.Time) (Stamp, bool, error) {
	st := Stamp{At: now}
	err := s.pool.QueryRow(ctx, `UPDATE series AS s SET latest_checked_at = $3, force_poll_at = NULL
		FROM (SELECT latest_checked_at, force_poll_at FROM series
		      WHERE site = $1 AND series_id = $2 FOR UPDATE) AS old
		WHERE s.site = $1 AND s.series_id = $2
		RETURNING old.latest_checked_at, old.force_poll_at`, site, seriesID, now).Scan(&st.PrevChecked, &st.PrevForce)
	if errors.Is(err, pgx.ErrNoRows) {
		return st, false, nil
	}
	if err != nil {
		return st, false, fmt.Errorf("store: stamp checked: %w", err)
	}
	return st, true, nil
}

// RestoreChecked undoes a stamp whose read never reached the Site (the
// route was busy or the sidecar lost): the Series is due again exactly as
// before, its Forced Poll pending again. It changes nothing when anything
// stamped the Series since (latest_checked_at no longer st.At), and
// reports whether it restored.
func (s *Store) RestoreChecked(ctx context.Context, site, seriesID string, st Stamp) (bool, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE series SET latest_checked_at = $4,
		force_poll_at = COALESCE(force_poll_at, $5)
		WHERE site = $1 AND series_id = $2 AND latest_checked_at = $3`,
		site, seriesID, st.At, st.PrevChecked, st.PrevForce)
	if err != nil {
		return false, fmt.Errorf("store: restore checked: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// ForcePoll asks the Site's Lane to read the Series on its next pass and
// returns the stamp stored; ErrNotFound for an unknown Series.
func (s *Store) ForcePoll(ctx context.Context, site, seriesID string, now time.Time) (time.Time, error) {
	var at time.Time
	err := s.pool.QueryRow(ctx, `UPDATE series SET force_poll_at = $3
		WHERE site = $1 AND series_id = $2 RETURNING force_poll_at`, site, seriesID, now).Scan(&at)
	if err != nil {
		return time.Time{}, notFound("force poll", err)
	}
	return at, nil
}
