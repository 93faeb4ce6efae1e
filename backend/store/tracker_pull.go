package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// The pull's rows: the lease that lets one process pull a Reader at a
// time, and a pull's result applied whole (the push's outbox is
// tracker_push.go). Times come from the caller's clock.

// TrackerMark is one of a Reader's bookmarks linked to exactly one
// tracker media by ids that count for that Reader, with its Progress (0
// when never read).
type TrackerMark struct {
	Site, SeriesID, MediaID string
	Progress                float64
}

// TrackerSkip is one of a Reader's bookmarks that the tracker skips: ids
// that count for the Reader name two or more media of the tracker's kind
// (on the Series or across its Work), so no pull moves it and no push
// goes for it until one of them goes.
type TrackerSkip struct {
	Site, SeriesID, Title string
	MediaIDs              []string
}

// TrackerMarks lists a Reader's bookmarks linked to one tracker id of
// kind (AniList: "al"), directly or through a member of their Work, by the
// ids that count for the Reader (trackerLinksSQL: a Site's or the
// crosswalk's, or the Reader's own; never another Reader's), and the
// bookmarks skipped because those ids name two media.
func (s *Store) TrackerMarks(ctx context.Context, readerID int64, kind string) ([]TrackerMark, []TrackerSkip, error) {
	rows, err := s.pool.Query(ctx, `
		WITH l AS (`+trackerLinksSQL(`b.reader_id = $1`)+`),
		g AS (SELECT reader_id, site, series_id, array_agg(DISTINCT media_id ORDER BY media_id) AS media
			FROM l GROUP BY reader_id, site, series_id)
		SELECT g.site, g.series_id, g.media, coalesce(p.number, 0)::float8, coalesce(se.title, '')
		FROM g LEFT JOIN progress p ON p.reader_id = g.reader_id AND p.site = g.site AND p.series_id = g.series_id
		LEFT JOIN series se ON se.site = g.site AND se.series_id = g.series_id
		ORDER BY g.site, g.series_id`, readerID, kind)
	if err != nil {
		return nil, nil, fmt.Errorf("store: tracker marks: %w", err)
	}
	var marks []TrackerMark
	var skips []TrackerSkip
	for rows.Next() {
		var m TrackerMark
		var media []string
		var title string
		if err := rows.Scan(&m.Site, &m.SeriesID, &media, &m.Progress, &title); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("store: tracker marks: %w", err)
		}
		if len(media) != 1 {
			skips = append(skips, TrackerSkip{Site: m.Site, SeriesID: m.SeriesID, Title: title, MediaIDs: media})
			continue
		}
		m.MediaID = media[0]
		marks = append(marks, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("store: tracker marks: %w", err)
	}
	return marks, skips, nil
}

// TrackerClaim is one Reader whose pull a process leased.
type TrackerClaim struct {
	ReaderID int64
	Username string
	Failures int // pulls failed in a row before this one
}

// ClaimTrackerPulls leases up to limit of service's due pulls to owner
// until now+lease: rows locked by another claim are skipped and a live
// lease is never taken, so two processes never pull one Reader at once. A
// process that dies leaves its lease to run out. The locking select is a
// CTE, run once: as a FROM subquery it may be run again per row, and its
// LIMIT then claims more than asked.
func (s *Store) ClaimTrackerPulls(ctx context.Context, service, owner string, now time.Time, lease time.Duration, limit int) ([]TrackerClaim, error) {
	rows, err := s.pool.Query(ctx, `
		WITH d AS (
			SELECT reader_id FROM tracker_accounts
			WHERE service = $1 AND pull AND username <> '' AND next_pull_at <= $3
				AND (lease_until IS NULL OR lease_until <= $3)
			ORDER BY next_pull_at, reader_id LIMIT $5 FOR UPDATE SKIP LOCKED
		)
		UPDATE tracker_accounts a SET lease_owner = $2, lease_until = $3::timestamptz + $4 * interval '1 millisecond'
		FROM d WHERE a.service = $1 AND a.reader_id = d.reader_id
		RETURNING a.reader_id, a.username, a.failures`, service, owner, now, lease.Milliseconds(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: claim tracker pulls: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (TrackerClaim, error) {
		var c TrackerClaim
		return c, r.Scan(&c.ReaderID, &c.Username, &c.Failures)
	})
	if err != nil {
		return nil, fmt.Errorf("store: claim tracker pulls: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ReaderID < out[j].ReaderID })
	return out, nil
}

// TrackerMove is one Progress a pull moves forward.
type TrackerMove struct {
	Site, SeriesID string
	To             int
}

// TrackerRemote is a tracker's count for one media.
type TrackerRemote struct {
	MediaID  string
	Progress int
}

// TrackerPulled is one pull's result, applied whole by ApplyTrackerPull.
type TrackerPulled struct {
	ReaderID  int64
	Service   string
	Owner     string // the lease holder
	Moves     []TrackerMove
	Remote    []TrackerRemote // the counts of the matched media, remembered for the push
	Unmatched []TrackerEntry  // cut to MaxTrackerUnmatched
	// States are the reading states the list's statuses mean, applied to
	// bookmarks whose state the Reader never set by hand (applyTrackerStates).
	States    []TrackerState
	Now, Next time.Time
}

// trackerPullSQL moves Progress forward only, on bookmarks only, with
// source anilist and no past-Latest refusal: a pulled count may stand
// above the Latest Chapter (the Reader read it elsewhere).
var trackerPullSQL = progressUpsertFrom(`SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
			WITH ORDINALITY`, `NULL::text`, "anilist")

// ApplyTrackerPull applies a pull in one transaction while owner still
// holds the lease (else ErrTrackerLeaseLost and nothing is written): the
// moves (forward only: a count at or below Progress changes nothing, and
// nothing is owed at or below the new Progress, since owed notices are
// settled against it), the remembered counts, the unmatched entries, the
// pull's times; a pull failure is cleared and the lease released. It
// returns how many Progress rows moved.
func (s *Store) ApplyTrackerPull(ctx context.Context, p TrackerPulled) (int, error) {
	if len(p.Unmatched) > MaxTrackerUnmatched {
		p.Unmatched = p.Unmatched[:MaxTrackerUnmatched]
	}
	if p.Unmatched == nil {
		p.Unmatched = []TrackerEntry{}
	}
	unmatched, err := json.Marshal(p.Unmatched)
	if err != nil {
		return 0, fmt.Errorf("store: apply tracker pull: %w", err)
	}
	moved := 0
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE tracker_accounts SET last_pull_at = $4, next_pull_at = $5, unmatched = $6,
				state = CASE WHEN state = 'failing' THEN 'ok' ELSE state END,
				error = CASE WHEN state = 'failing' THEN '' ELSE error END,
				failures = 0, lease_owner = NULL, lease_until = NULL, updated_at = now()
			WHERE reader_id = $1 AND service = $2 AND lease_owner = $3`,
			p.ReaderID, p.Service, p.Owner, p.Now, p.Next, unmatched)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return ErrTrackerLeaseLost
		}
		if moved, err = applyTrackerMoves(ctx, tx, p); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE tracker_accounts SET last_pull_moved = $3 WHERE reader_id = $1 AND service = $2`,
			p.ReaderID, p.Service, moved); err != nil {
			return err
		}
		if err := applyTrackerStates(ctx, tx, p); err != nil {
			return err
		}
		return rememberRemote(ctx, tx, p.ReaderID, p.Service, p.Remote, p.Now)
	})
	if err != nil {
		return 0, fmt.Errorf("store: apply tracker pull: %w", err)
	}
	return moved, nil
}

func applyTrackerMoves(ctx context.Context, tx pgx.Tx, p TrackerPulled) (int, error) {
	// One row per bookmark (the statement wants distinct keys): the
	// highest count wins when two media link one bookmark.
	best := map[[2]string]int{}
	for _, m := range p.Moves {
		k := [2]string{m.Site, m.SeriesID}
		if n, ok := best[k]; !ok || m.To > n {
			best[k] = m.To
		}
	}
	if len(best) == 0 {
		return 0, nil
	}
	keys := make([][2]string, 0, len(best))
	for k := range best {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	n := len(keys)
	readers, sites, ids, numbers, urls, at := make([]int64, n), make([]string, n), make([]string, n),
		make([]string, n), make([]string, n), make([]time.Time, n)
	for i, k := range keys {
		readers[i], sites[i], ids[i], numbers[i], at[i] = p.ReaderID, k[0], k[1], strconv.Itoa(best[k]), p.Now
	}
	q, err := trackerPullSQLOf(p.Service)
	if err != nil {
		return 0, err
	}
	rows, err := tx.Query(ctx, q, readers, sites, ids, numbers, urls, at)
	if err != nil {
		return 0, err
	}
	moved := 0
	for rows.Next() {
		var have, up bool
		var past *string
		if err := rows.Scan(&have, &up, &past); err != nil {
			rows.Close()
			return 0, err
		}
		if up {
			moved++
		}
	}
	rows.Close()
	return moved, rows.Err()
}

func rememberRemote(ctx context.Context, tx pgx.Tx, reader int64, service string, remote []TrackerRemote, now time.Time) error {
	if len(remote) == 0 {
		return nil
	}
	ids, counts := make([]string, len(remote)), make([]int32, len(remote))
	for i, r := range remote {
		ids[i], counts[i] = r.MediaID, int32(r.Progress)
	}
	_, err := tx.Exec(ctx, `
		INSERT INTO tracker_remote AS r (reader_id, service, media_id, progress, seen_at)
		SELECT $1, $2, m, c, $5 FROM unnest($3::text[], $4::int[]) AS u (m, c)
		ON CONFLICT (reader_id, service, media_id) DO UPDATE SET progress = excluded.progress, seen_at = excluded.seen_at
			WHERE r.progress <> excluded.progress`, reader, service, ids, counts, now)
	return err
}

// FailTrackerPull records a failed pull while owner holds the lease: the
// state turns failing with reason (a refused token's reconnect stays),
// the next pull waits until next (the caller's back-off), the lease is
// released.
func (s *Store) FailTrackerPull(ctx context.Context, readerID int64, service, owner, reason string, next time.Time) error {
	_, err := s.pool.Exec(ctx, `UPDATE tracker_accounts SET
			state = CASE WHEN state = 'reconnect' THEN state ELSE 'failing' END,
			error = CASE WHEN state = 'reconnect' THEN error ELSE $4 END,
			failures = failures + 1, next_pull_at = $5, lease_owner = NULL, lease_until = NULL, updated_at = now()
		WHERE reader_id = $1 AND service = $2 AND lease_owner = $3`,
		readerID, service, owner, cutBytes(reason, maxTrackerError), next)
	if err != nil {
		return fmt.Errorf("store: fail tracker pull: %w", err)
	}
	return nil
}

// TrackerFailures is how many pulls in a row failed (the back-off's
// exponent).
func (s *Store) TrackerFailures(ctx context.Context, readerID int64, service string) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `SELECT failures FROM tracker_accounts WHERE reader_id = $1 AND service = $2`,
		readerID, service).Scan(&n)
	if err != nil {
		return 0, notFound("tracker failures", err)
	}
	return n, nil
}
