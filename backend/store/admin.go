package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The admin reads of the Owner's console (its writes use the Lanes' own
// PauseLane, ResumeLane and ForcePoll). Names carry an Admin
// prefix so they never collide with the Lanes' own store methods.

// AdminLaneSite names one Site and its Rest, the input of AdminLaneSnapshots.
type AdminLaneSite struct {
	Site string
	Rest time.Duration
}

// AdminLaneSnapshot is what the database knows of one Lane at one instant,
// apart from the large counts (see AdminLaneCounts). Every field comes from
// an index probe, so it stays cheap at any size.
type AdminLaneSnapshot struct {
	Site          string
	ForcedPending int // Forced Polls not yet read
	// ForcedNotRestDue counts pending Forced Polls on Series that are not
	// otherwise due: due = rest-due + this.
	ForcedNotRestDue int
	// OldestDueSince is when the longest-waiting due Series became due, as
	// the Lanes reckon it (DueStats.OldestDueSince): created_at for a Series
	// never checked, the earlier of the Forced Poll and latest_checked_at +
	// Rest for a forced one, latest_checked_at + Rest otherwise. Nil when
	// nothing is due.
	OldestDueSince *time.Time
	// NeverChecked: the Site has a Series never checked (a new bookmark),
	// which opens a browser Lane's wake gate.
	NeverChecked bool
	PausedUntil  *time.Time
	PauseReason  string
	RefuseUntil  *time.Time
	LastPass     *Pass // the newest poll_passes row (its ID is not read here)
}

const adminPassColumns = `site, started_at, finished_at, due, checked, ok, new, not_found,
	no_chapter, unfetchable, errors, refused, unreachable, skip, behind_by_ms, listing, hinted`

// adminLanesSQL reads every asked-for Lane in one round trip. Each lateral
// subquery is one index probe: series_forced_idx for pending forces,
// series_unchecked_idx (0002) and series_due_idx (in its NULLS FIRST order)
// for the oldest due, poll_passes_site_started_idx for the last pass.
const adminLanesSQL = `
WITH l AS (
	SELECT site, ord, rest_ms, $3::timestamptz - rest_ms * interval '1 millisecond' AS cutoff
	FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS u(site, rest_ms, ord)
)
SELECT l.site,
	(SELECT count(*) FROM series s WHERE s.site = l.site AND s.force_poll_at IS NOT NULL
		AND (s.latest_checked_at IS NULL OR s.force_poll_at > s.latest_checked_at)),
	(SELECT count(*) FROM series s WHERE s.site = l.site AND s.force_poll_at IS NOT NULL
		AND s.latest_checked_at > l.cutoff AND s.force_poll_at > s.latest_checked_at),
	(SELECT s.created_at FROM series s WHERE s.site = l.site AND s.latest_checked_at IS NULL
		ORDER BY s.created_at LIMIT 1),
	(SELECT s.latest_checked_at FROM series s WHERE s.site = l.site AND s.latest_checked_at <= l.cutoff
		ORDER BY s.latest_checked_at NULLS FIRST LIMIT 1) + l.rest_ms * interval '1 millisecond',
	(SELECT min(s.force_poll_at) FROM series s WHERE s.site = l.site AND s.force_poll_at IS NOT NULL
		AND s.force_poll_at > s.latest_checked_at),
	pl.paused_until, coalesce(pl.pause_reason, ''), pl.refuse_until,
	lp.site, lp.started_at, lp.finished_at, lp.due, lp.checked, lp.ok, lp.new, lp.not_found,
	lp.no_chapter, lp.unfetchable, lp.errors, lp.refused, lp.unreachable, lp.skip, lp.behind_by_ms,
	lp.listing, lp.hinted
FROM l
LEFT JOIN poll_lanes pl ON pl.site = l.site
LEFT JOIN LATERAL (
	SELECT ` + adminPassColumns + ` FROM poll_passes p WHERE p.site = l.site
	ORDER BY p.started_at DESC LIMIT 1
) lp ON true
ORDER BY l.ord`

// AdminLaneSnapshots reads the state of each given Lane at now, in the
// order given.
func (s *Store) AdminLaneSnapshots(ctx context.Context, now time.Time, lanes []AdminLaneSite) ([]AdminLaneSnapshot, error) {
	names, rests := adminLaneArgs(lanes)
	rows, err := s.pool.Query(ctx, adminLanesSQL, names, rests, now)
	if err != nil {
		return nil, fmt.Errorf("store: admin lanes: %w", err)
	}
	defer rows.Close()
	var out []AdminLaneSnapshot
	for rows.Next() {
		var (
			snap                 AdminLaneSnapshot
			sinceNew, sinceRest  *time.Time
			sinceForce           *time.Time
			pSite, pSkip         *string
			pStart, pFinish      *time.Time
			pDue, pChecked, pOK  *int
			pNew, pNF, pNC, pUnf *int
			pErr, pRef, pUnr     *int
			pBehind              *int64
			pListing             *bool
			pHinted              *int
		)
		if err := rows.Scan(&snap.Site, &snap.ForcedPending, &snap.ForcedNotRestDue,
			&sinceNew, &sinceRest, &sinceForce, &snap.PausedUntil, &snap.PauseReason, &snap.RefuseUntil,
			&pSite, &pStart, &pFinish, &pDue, &pChecked, &pOK, &pNew, &pNF, &pNC, &pUnf, &pErr, &pRef, &pUnr,
			&pSkip, &pBehind, &pListing, &pHinted); err != nil {
			return nil, fmt.Errorf("store: admin lanes: %w", err)
		}
		snap.OldestDueSince = earliest(earliest(sinceNew, sinceRest), sinceForce)
		snap.NeverChecked = sinceNew != nil
		if pSite != nil {
			snap.LastPass = &Pass{
				Site: *pSite, StartedAt: *pStart, FinishedAt: *pFinish, Due: *pDue, Checked: *pChecked,
				OK: *pOK, New: *pNew, NotFound: *pNF, NoChapter: *pNC, Unfetchable: *pUnf, Errors: *pErr,
				Refused: *pRef, Unreachable: *pUnr, Skip: *pSkip,
				BehindBy: time.Duration(*pBehind) * time.Millisecond, Listing: *pListing, Hinted: *pHinted,
			}
		}
		out = append(out, snap)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: admin lanes: %w", err)
	}
	return out, nil
}

func adminLaneArgs(lanes []AdminLaneSite) ([]string, []int64) {
	names := make([]string, len(lanes))
	rests := make([]int64, len(lanes))
	for i, l := range lanes {
		names[i] = l.Site
		rests[i] = l.Rest.Milliseconds()
	}
	return names, rests
}

// AdminLaneCount holds the large per-Site counts: they scan one index range
// each (index-only), which at a million Series takes a good part of a
// second, so the API refreshes them in the background.
type AdminLaneCount struct {
	Site    string
	Series  int
	RestDue int // never checked, or checked Rest or more ago
	Failing int
}

// AdminLaneCounts counts each given Lane's Series, rest-due Series and
// failure rows at now, in the order given.
func (s *Store) AdminLaneCounts(ctx context.Context, now time.Time, lanes []AdminLaneSite) ([]AdminLaneCount, error) {
	names, rests := adminLaneArgs(lanes)
	rows, err := s.pool.Query(ctx, `
		WITH l AS (
			SELECT site, ord, $3::timestamptz - rest_ms * interval '1 millisecond' AS cutoff
			FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS u(site, rest_ms, ord)
		)
		SELECT l.site,
			(SELECT count(*) FROM series s WHERE s.site = l.site),
			(SELECT count(*) FROM series s WHERE s.site = l.site AND s.latest_checked_at IS NULL)
			+ (SELECT count(*) FROM series s WHERE s.site = l.site AND s.latest_checked_at <= l.cutoff),
			(SELECT count(*) FROM poll_failures f WHERE f.site = l.site)
		FROM l ORDER BY l.ord`, names, rests, now)
	if err != nil {
		return nil, fmt.Errorf("store: admin lane counts: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (AdminLaneCount, error) {
		var c AdminLaneCount
		err := r.Scan(&c.Site, &c.Series, &c.RestDue, &c.Failing)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: admin lane counts: %w", err)
	}
	return out, nil
}

func earliest(a, b *time.Time) *time.Time {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case b.Before(*a):
		return b
	}
	return a
}

// AdminFailingFilter narrows the failing worklist; empty fields match all.
type AdminFailingFilter struct {
	Site    string
	Outcome string
	Limit   int
}

// AdminFailing is one row of the failing worklist.
type AdminFailing struct {
	Site            string
	SeriesID        string
	Title           string
	URL             string
	Outcome         string
	FailingSince    time.Time
	LatestCheckedAt *time.Time
}

// AdminFailingTotalCap bounds the count behind AdminFailingList's total:
// counting 100k failure rows on every dashboard refresh would cost more
// than the list itself.
const AdminFailingTotalCap = 10000

// AdminFailingList returns up to f.Limit failing Series, oldest failure
// first, and how many match in all, counted up to AdminFailingTotalCap
// (a total above the cap comes back as the cap plus one).
func (s *Store) AdminFailingList(ctx context.Context, f AdminFailingFilter) ([]AdminFailing, int, error) {
	// The predicates are written out only when set: a cached generic plan
	// of "($1 = '' OR site = $1)" could not use the (site, ...) indexes.
	where, args := "true", []any{}
	if f.Site != "" {
		args = append(args, f.Site)
		where += fmt.Sprintf(" AND f.site = $%d", len(args))
	}
	if f.Outcome != "" {
		args = append(args, f.Outcome)
		where += fmt.Sprintf(" AND f.outcome = $%d", len(args))
	}
	rows, err := s.pool.Query(ctx, `
		SELECT f.site, f.series_id, s.title, s.url, f.outcome, f.failing_since, s.latest_checked_at
		FROM poll_failures f JOIN series s ON s.site = f.site AND s.series_id = f.series_id
		WHERE `+where+`
		ORDER BY f.failing_since, f.site, f.series_id
		LIMIT `+fmt.Sprint(f.Limit), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("store: admin failing: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (AdminFailing, error) {
		var a AdminFailing
		err := r.Scan(&a.Site, &a.SeriesID, &a.Title, &a.URL, &a.Outcome, &a.FailingSince, &a.LatestCheckedAt)
		return a, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("store: admin failing: %w", err)
	}
	if len(out) < f.Limit {
		return out, len(out), nil // the list is the whole match
	}
	var total int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM poll_failures f
		WHERE `+where+` LIMIT `+fmt.Sprint(AdminFailingTotalCap+1)+`) AS capped`, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: admin failing count: %w", err)
	}
	return out, max(total, len(out)), nil
}
