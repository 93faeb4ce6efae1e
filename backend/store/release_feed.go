package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// This file holds the release feed's tables (release_feed, one row, and
// release_feed_sites, one row per Site it hinted) and the one read it makes
// on Series: which followed Series carry a MangaUpdates id, with the other
// members of their Works. Its hints go through HintSeries, exactly as a
// listing's (docs/adr/0030-release-feed-hints.md).

// MaxReleaseSeen bounds the release ids the feed keeps from its last read.
const MaxReleaseSeen = 5000

// maxReleaseReason bounds the stored reason of a failed read (the
// table's CHECK).
const maxReleaseReason = 300

// ReleaseFeedState is the release_feed row; none reads as the zero state.
type ReleaseFeedState struct {
	NextAt      *time.Time // no read starts before this (a claim or a backoff)
	LastReadAt  *time.Time // the last read that ended, good or not
	LastOutcome string     // "ok" or the failure's word
	LastReason  string     // why the last read failed ("" after a good one)
	Failures    int        // failed reads in a row
	Releases    int        // releases the last good read took in
	Seen        []int64    // release ids of the last good read, newest first
}

const releaseFeedColumns = `next_at, last_read_at, last_outcome, last_reason, failures, releases, seen`

func scanReleaseFeed(row scanner) (ReleaseFeedState, error) {
	var f ReleaseFeedState
	err := row.Scan(&f.NextAt, &f.LastReadAt, &f.LastOutcome, &f.LastReason, &f.Failures, &f.Releases, &f.Seen)
	return f, err
}

// GetReleaseFeed returns the feed's state, or the zero state.
func (s *Store) GetReleaseFeed(ctx context.Context) (ReleaseFeedState, error) {
	f, err := scanReleaseFeed(s.pool.QueryRow(ctx, `SELECT `+releaseFeedColumns+` FROM release_feed`))
	if errors.Is(err, pgx.ErrNoRows) {
		return ReleaseFeedState{}, nil
	}
	if err != nil {
		return ReleaseFeedState{}, fmt.Errorf("store: get release feed: %w", err)
	}
	return f, nil
}

// ClaimReleaseFeed claims the next read for this process when it is due
// at now (next_at unset or past): next_at moves to now + hold, so no other
// process reads until this one saves its result or the hold runs out (a
// process that died mid-read). It returns the state as it was and whether
// the claim was won.
func (s *Store) ClaimReleaseFeed(ctx context.Context, now time.Time, hold time.Duration) (ReleaseFeedState, bool, error) {
	if _, err := s.pool.Exec(ctx, `INSERT INTO release_feed (id) VALUES (true) ON CONFLICT DO NOTHING`); err != nil {
		return ReleaseFeedState{}, false, fmt.Errorf("store: claim release feed: %w", err)
	}
	f, err := scanReleaseFeed(s.pool.QueryRow(ctx, `
		UPDATE release_feed SET next_at = $2, updated_at = now()
		WHERE id AND (next_at IS NULL OR next_at <= $1)
		RETURNING `+releaseFeedColumns, now, now.Add(hold)))
	if errors.Is(err, pgx.ErrNoRows) {
		return ReleaseFeedState{}, false, nil
	}
	if err != nil {
		return ReleaseFeedState{}, false, fmt.Errorf("store: claim release feed: %w", err)
	}
	return f, true, nil
}

// SaveReleaseFeed writes the feed's state after a read (Seen cut to
// MaxReleaseSeen ids, the reason to 300 bytes).
func (s *Store) SaveReleaseFeed(ctx context.Context, f ReleaseFeedState) error {
	seen := f.Seen
	if len(seen) > MaxReleaseSeen {
		seen = seen[:MaxReleaseSeen]
	}
	if seen == nil {
		seen = []int64{}
	}
	reason := f.LastReason
	if len(reason) > maxReleaseReason {
		reason = reason[:maxReleaseReason]
	}
	_, err := s.pool.Exec(ctx, `
		INSERT INTO release_feed (id, next_at, last_read_at, last_outcome, last_reason, failures, releases, seen, updated_at)
		VALUES (true, $1, $2, $3, $4, $5, $6, $7, now())
		ON CONFLICT (id) DO UPDATE SET next_at = EXCLUDED.next_at, last_read_at = EXCLUDED.last_read_at,
			last_outcome = EXCLUDED.last_outcome, last_reason = EXCLUDED.last_reason, failures = EXCLUDED.failures,
			releases = EXCLUDED.releases, seen = EXCLUDED.seen, updated_at = now()`,
		f.NextAt, f.LastReadAt, f.LastOutcome, strings.ToValidUTF8(reason, ""), f.Failures, f.Releases, seen)
	if err != nil {
		return fmt.Errorf("store: save release feed: %w", err)
	}
	return nil
}

// ReleaseFeedSite is one release_feed_sites row.
type ReleaseFeedSite struct {
	Hinted   int        // Series the feed's last good read made due on the Site
	HintedAt *time.Time // when a read last made any due there
}

// SaveReleaseHints records, for every Site of sites, how many Series the
// feed's read at now made due there (hinted, absent = 0); a Site with
// some gets hinted_at = now.
func (s *Store) SaveReleaseHints(ctx context.Context, sites []string, hinted map[string]int, now time.Time) error {
	counts := make([]int32, len(sites))
	for i, site := range sites {
		counts[i] = int32(min(hinted[site], 1<<30))
	}
	_, err := s.pool.Exec(ctx, `
		INSERT INTO release_feed_sites (site, hinted, hinted_at, updated_at)
		SELECT site, n, CASE WHEN n > 0 THEN $3::timestamptz END, now()
		FROM unnest($1::text[], $2::int[]) AS h(site, n)
		ON CONFLICT (site) DO UPDATE SET hinted = EXCLUDED.hinted,
			hinted_at = coalesce(EXCLUDED.hinted_at, release_feed_sites.hinted_at), updated_at = now()`,
		sites, counts, now)
	if err != nil {
		return fmt.Errorf("store: save release hints: %w", err)
	}
	return nil
}

// HintReleases makes the hinted Series of the Site due at cutoff exactly
// as HintSeries does, and records in the same transaction how many it
// made due (and, when any, hinted_at = now): a Lane the hint wakes
// (series_wake_sooner) finds the hint's time already there.
func (s *Store) HintReleases(ctx context.Context, site string, hints []Hint, cutoff, now time.Time) (int, error) {
	ids, nums := hintArrays(hints)
	var n int
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, hintSQL, site, ids, nums, cutoff)
		if err != nil {
			return err
		}
		n = int(tag.RowsAffected())
		_, err = tx.Exec(ctx, `
			INSERT INTO release_feed_sites (site, hinted, hinted_at, updated_at)
			VALUES ($1, $2, CASE WHEN $2 > 0 THEN $3::timestamptz END, now())
			ON CONFLICT (site) DO UPDATE SET hinted = EXCLUDED.hinted,
				hinted_at = coalesce(EXCLUDED.hinted_at, release_feed_sites.hinted_at), updated_at = now()`,
			site, n, now)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: hint releases: %w", err)
	}
	return n, nil
}

// ReleaseFeedSites returns every Site's release_feed_sites row.
func (s *Store) ReleaseFeedSites(ctx context.Context) (map[string]ReleaseFeedSite, error) {
	rows, err := s.pool.Query(ctx, `SELECT site, hinted, hinted_at FROM release_feed_sites`)
	if err != nil {
		return nil, fmt.Errorf("store: release feed sites: %w", err)
	}
	defer rows.Close()
	out := map[string]ReleaseFeedSite{}
	for rows.Next() {
		var site string
		var r ReleaseFeedSite
		if err := rows.Scan(&site, &r.Hinted, &r.HintedAt); err != nil {
			return nil, fmt.Errorf("store: release feed sites: %w", err)
		}
		out[site] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: release feed sites: %w", err)
	}
	return out, nil
}

// ReleaseHintedAt is when the release feed last made a Series of the Site
// due (nil: never).
func (s *Store) ReleaseHintedAt(ctx context.Context, site string) (*time.Time, error) {
	var at *time.Time
	err := s.pool.QueryRow(ctx, `SELECT hinted_at FROM release_feed_sites WHERE site = $1`, site).Scan(&at)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: release hinted at: %w", err)
	}
	return at, nil
}

// MUSeries is a followed Series a MangaUpdates id reaches: it carries the
// id (kind mu, any source), or shares a Work with one that does.
type MUSeries struct {
	Site     string
	SeriesID string
	Value    string // the mu id that reached it
}

// MaxMUValues bounds the ids one SeriesByMU call looks up.
const MaxMUValues = 10000

// SeriesByMU returns the followed Series the given mu ids reach: every
// Series carrying one of them, and every other member of those Series'
// Works (the story on every Site it is on). Values past MaxMUValues are
// an error, never silently dropped.
func (s *Store) SeriesByMU(ctx context.Context, values []string) ([]MUSeries, error) {
	if len(values) == 0 {
		return nil, nil
	}
	if len(values) > MaxMUValues {
		return nil, fmt.Errorf("store: series by mu: %d ids, at most %d", len(values), MaxMUValues)
	}
	rows, err := s.pool.Query(ctx, `
		WITH v AS (SELECT DISTINCT unnest($1::text[]) AS value),
		d AS (SELECT DISTINCT i.site, i.series_id, i.value FROM series_ids i JOIN v ON i.kind = 'mu' AND i.value = v.value)
		SELECT site, series_id, value FROM d
		UNION
		SELECT o.site, o.series_id, d.value FROM d
		JOIN work_members m ON m.site = d.site AND m.series_id = d.series_id
		JOIN work_members o ON o.work_id = m.work_id
		ORDER BY 1, 2, 3`, values)
	if err != nil {
		return nil, fmt.Errorf("store: series by mu: %w", err)
	}
	defer rows.Close()
	var out []MUSeries
	for rows.Next() {
		var m MUSeries
		if err := rows.Scan(&m.Site, &m.SeriesID, &m.Value); err != nil {
			return nil, fmt.Errorf("store: series by mu: %w", err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: series by mu: %w", err)
	}
	return out, nil
}
