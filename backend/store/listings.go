package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// This file holds the lane_listings table (one row per Site whose Lane
// reads a listing) and the one write a listing makes on series: a hint,
// which moves a Series' check time back to the due cutoff and never
// touches a Latest Chapter (docs/adr/0015).

// MaxListingSeen bounds the keys a listing row keeps from its last look.
const MaxListingSeen = 1000

// ListingState is one lane_listings row; a Site with none reads as the zero
// state (Site set, never read).
type ListingState struct {
	Site        string
	LastAt      *time.Time // the last listing read, good or not
	LastOutcome string     // its outcome word ("ok", "errors", ...)
	Failures    int        // failed reads in a row, 0 after a good one
	Hinted      int        // Series the last good read made due
	Overflows   int64      // listing reads that did not reach the last look
	Seen        []string   // entry keys of the last good look, newest first
	UpdatedAt   time.Time
}

const listingColumns = `site, last_at, last_outcome, failures, hinted, overflows, seen, updated_at`

func scanListing(row scanner) (ListingState, error) {
	var l ListingState
	err := row.Scan(&l.Site, &l.LastAt, &l.LastOutcome, &l.Failures, &l.Hinted, &l.Overflows, &l.Seen, &l.UpdatedAt)
	return l, err
}

// GetListing returns the Site's listing state, or the zero state.
func (s *Store) GetListing(ctx context.Context, site string) (ListingState, error) {
	l, err := scanListing(s.pool.QueryRow(ctx, `SELECT `+listingColumns+` FROM lane_listings WHERE site = $1`, site))
	if errors.Is(err, pgx.ErrNoRows) {
		return ListingState{Site: site}, nil
	}
	if err != nil {
		return ListingState{}, fmt.Errorf("store: get listing: %w", err)
	}
	return l, nil
}

// ListingStates returns every listing row by Site.
func (s *Store) ListingStates(ctx context.Context) (map[string]ListingState, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+listingColumns+` FROM lane_listings`)
	if err != nil {
		return nil, fmt.Errorf("store: listing states: %w", err)
	}
	defer rows.Close()
	out := map[string]ListingState{}
	for rows.Next() {
		l, err := scanListing(rows)
		if err != nil {
			return nil, fmt.Errorf("store: listing states: %w", err)
		}
		out[l.Site] = l
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: listing states: %w", err)
	}
	return out, nil
}

// SaveListing writes the Site's listing state (Seen cut to
// MaxListingSeen keys).
func (s *Store) SaveListing(ctx context.Context, l ListingState) error {
	seen := l.Seen
	if len(seen) > MaxListingSeen {
		seen = seen[:MaxListingSeen]
	}
	if seen == nil {
		seen = []string{}
	}
	_, err := s.pool.Exec(ctx, `
		INSERT INTO lane_listings (site, last_at, last_outcome, failures, hinted, overflows, seen, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, now())
		ON CONFLICT (site) DO UPDATE SET last_at = EXCLUDED.last_at, last_outcome = EXCLUDED.last_outcome,
			failures = EXCLUDED.failures, hinted = EXCLUDED.hinted, overflows = EXCLUDED.overflows,
			seen = EXCLUDED.seen, updated_at = now()`,
		l.Site, l.LastAt, l.LastOutcome, l.Failures, l.Hinted, l.Overflows, seen)
	if err != nil {
		return fmt.Errorf("store: save listing: %w", err)
	}
	return nil
}

// Hint is one Series a listing names: its id and the number listed, ""
// when the listing gives none (the caller already decided the Series
// moved).
type Hint struct {
	SeriesID string
	Number   string
}

// hintSQL moves the check time of the Site's Series the hints name back
// to the due cutoff (now - Rest) when the listed number is above the
// stored Latest Chapter (or no number is listed, or none is stored): the
// Series becomes due through the same cutoff Rest uses, behind every Series
// Rest made due before it, so a hint never delays another read. A Series
// already due (never checked, rested, or a Forced Poll pending) is left
// alone. It never touches a Latest Chapter.
const hintSQL = `
	WITH h AS (
		SELECT series_id, max(nullif(number, '')::numeric) AS n, bool_or(number = '') AS bare
		FROM unnest($2::text[], $3::text[]) AS h(series_id, number) GROUP BY series_id
	)
	UPDATE series s SET latest_checked_at = $4
	FROM h
	WHERE s.site = $1 AND s.series_id = h.series_id
		AND s.latest_checked_at > $4
		AND (s.force_poll_at IS NULL OR s.force_poll_at <= s.latest_checked_at)
		AND (h.bare OR s.latest_number IS NULL OR h.n > s.latest_number)`

// HintSeries makes the hinted Series due at cutoff, the Site's due cutoff
// now (now - Rest; see hintSQL), and reports how many it made due. Numbers
// must be ParseNumber's decimals or "".
func (s *Store) HintSeries(ctx context.Context, site string, hints []Hint, cutoff time.Time) (int, error) {
	if len(hints) == 0 {
		return 0, nil
	}
	ids, nums := hintArrays(hints)
	tag, err := s.pool.Exec(ctx, hintSQL, site, ids, nums, cutoff)
	if err != nil {
		return 0, fmt.Errorf("store: hint series: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// hintArrays is the hints as hintSQL's two arrays.
func hintArrays(hints []Hint) (ids, nums []string) {
	ids = make([]string, len(hints))
	nums = make([]string, len(hints))
	for i, h := range hints {
		ids[i], nums[i] = h.SeriesID, h.Number
	}
	return ids, nums
}
