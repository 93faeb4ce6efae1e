package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/safetext"
)

// Lane is one poll_lanes row: the Owner's pause window and the refusal
// backoff of one Site's Lane. A Site with no row reads as the zero Lane.
type Lane struct {
	Site        string
	PausedUntil *time.Time // the Owner's pause; nil when never paused
	PauseReason string
	RefuseUntil *time.Time // refusal backoff; nil when never refused
	UpdatedAt   time.Time
}

// Paused reports whether the pause window is open at now.
func (l Lane) Paused(now time.Time) bool { return l.PausedUntil != nil && l.PausedUntil.After(now) }

// Refusing reports whether the refusal backoff is open at now.
func (l Lane) Refusing(now time.Time) bool { return l.RefuseUntil != nil && l.RefuseUntil.After(now) }

const laneColumns = `site, paused_until, pause_reason, refuse_until, updated_at`

func scanLane(row scanner) (Lane, error) {
	var l Lane
	err := row.Scan(&l.Site, &l.PausedUntil, &l.PauseReason, &l.RefuseUntil, &l.UpdatedAt)
	return l, err
}

// GetLane returns the Site's poll_lanes row, or the zero Lane (Site set,
// no windows) when the Site has none yet.
func (s *Store) GetLane(ctx context.Context, site string) (Lane, error) {
	l, err := scanLane(s.pool.QueryRow(ctx, `SELECT `+laneColumns+` FROM poll_lanes WHERE site = $1`, site))
	if errors.Is(err, pgx.ErrNoRows) {
		return Lane{Site: site}, nil
	}
	if err != nil {
		return Lane{}, fmt.Errorf("store: get lane: %w", err)
	}
	return l, nil
}

// PauseLane opens the Owner's pause window until the given time, with an
// optional reason, and returns the row as stored.
func (s *Store) PauseLane(ctx context.Context, site string, until time.Time, reason string) (Lane, error) {
	l, err := scanLane(s.pool.QueryRow(ctx, `
		INSERT INTO poll_lanes (site, paused_until, pause_reason, updated_at) VALUES ($1, $2, $3, now())
		ON CONFLICT (site) DO UPDATE SET paused_until = EXCLUDED.paused_until,
			pause_reason = EXCLUDED.pause_reason, updated_at = now()
		RETURNING `+laneColumns, site, until, safetext.Line(reason)))
	if err != nil {
		return Lane{}, fmt.Errorf("store: pause lane: %w", err)
	}
	return l, nil
}

// ResumeLane closes the pause window (the reason goes with it) and returns
// the row as stored. Resuming a Lane that was never paused is not an error.
func (s *Store) ResumeLane(ctx context.Context, site string) (Lane, error) {
	l, err := scanLane(s.pool.QueryRow(ctx, `
		INSERT INTO poll_lanes (site, updated_at) VALUES ($1, now())
		ON CONFLICT (site) DO UPDATE SET paused_until = NULL, pause_reason = '', updated_at = now()
		RETURNING `+laneColumns, site))
	if err != nil {
		return Lane{}, fmt.Errorf("store: resume lane: %w", err)
	}
	return l, nil
}

// SetRefuseUntil opens (or, with a time in the past, closes) the Lane's
// refusal backoff.
func (s *Store) SetRefuseUntil(ctx context.Context, site string, until time.Time) error {
	_, err := s.pool.Exec(ctx, `
		INSERT INTO poll_lanes (site, refuse_until, updated_at) VALUES ($1, $2, now())
		ON CONFLICT (site) DO UPDATE SET refuse_until = EXCLUDED.refuse_until, updated_at = now()`, site, until)
	if err != nil {
		return fmt.Errorf("store: set refuse until: %w", err)
	}
	return nil
}

// LivePass is the pass a Lane has in flight: when it started (Lane clock),
// how many Series were due then and how many it has read so far.
type LivePass struct {
	StartedAt time.Time
	Due       int
	Checked   int
}

// Holder is one lane_holders row: the process holding a Site's Lane, its
// last heartbeat on the Lane's clock (SeenAt) and on the database's
// (BeatAt), and the pass in flight (nil between passes).
type Holder struct {
	Site   string
	Holder string
	SeenAt time.Time
	BeatAt time.Time
	Pass   *LivePass
}

// BeatLane records a heartbeat of the Site's holder: who it is, the Lane's
// time (seen) and the pass in flight, nil between passes. beat_at is the
// database's own clock.
func (s *Store) BeatLane(ctx context.Context, site, holder string, seen time.Time, pass *LivePass) error {
	var started *time.Time
	var due, checked int
	if pass != nil {
		started, due, checked = &pass.StartedAt, pass.Due, pass.Checked
	}
	_, err := s.pool.Exec(ctx, `
		INSERT INTO lane_holders (site, holder, seen_at, beat_at, pass_started_at, pass_due, pass_checked)
		VALUES ($1, $2, $3, now(), $4, $5, $6)
		ON CONFLICT (site) DO UPDATE SET holder = EXCLUDED.holder, seen_at = EXCLUDED.seen_at,
			beat_at = now(), pass_started_at = EXCLUDED.pass_started_at,
			pass_due = EXCLUDED.pass_due, pass_checked = EXCLUDED.pass_checked`,
		site, holder, seen, started, due, checked)
	if err != nil {
		return fmt.Errorf("store: beat lane: %w", err)
	}
	return nil
}

// LaneHolders returns every lane_holders row by Site.
func (s *Store) LaneHolders(ctx context.Context) (map[string]Holder, error) {
	rows, err := s.pool.Query(ctx, `SELECT site, holder, seen_at, beat_at, pass_started_at, pass_due, pass_checked
		FROM lane_holders`)
	if err != nil {
		return nil, fmt.Errorf("store: lane holders: %w", err)
	}
	defer rows.Close()
	out := map[string]Holder{}
	for rows.Next() {
		var h Holder
		var started *time.Time
		var due, checked int
		if err := rows.Scan(&h.Site, &h.Holder, &h.SeenAt, &h.BeatAt, &started, &due, &checked); err != nil {
			return nil, fmt.Errorf("store: lane holders: %w", err)
		}
		if started != nil {
			h.Pass = &LivePass{StartedAt: *started, Due: due, Checked: checked}
		}
		out[h.Site] = h
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: lane holders: %w", err)
	}
	return out, nil
}
