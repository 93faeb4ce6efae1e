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

// The pull's and the push's rows: the lease that lets one process pull a
// Reader at a time, a pull's result applied whole, and the push outbox
// that coalesces a minute of reads into one write. Times come from the
// caller's clock.

// trackerLinkedSQL is the Reader's bookmarks ($1) linked to a tracker id
// of kind $2: the bookmarked Series carries it, or another member of its
// Work does. One row per (bookmark, media id).
const trackerLinkedSQL = `
	SELECT b.reader_id, b.site, b.series_id, i.value AS media_id
	FROM bookmarks b JOIN series_ids i ON i.site = b.site AND i.series_id = b.series_id AND i.kind = $2
	WHERE b.reader_id = ANY($1)
	UNION
	SELECT b.reader_id, b.site, b.series_id, i.value
	FROM bookmarks b
	JOIN work_members m ON m.site = b.site AND m.series_id = b.series_id
	JOIN work_members o ON o.work_id = m.work_id
	JOIN series_ids i ON i.site = o.site AND i.series_id = o.series_id AND i.kind = $2
	WHERE b.reader_id = ANY($1)`

// TrackerMark is one of a Reader's bookmarks linked to a tracker media,
// with its Progress (0 when never read).
type TrackerMark struct {
	Site, SeriesID, MediaID string
	Progress                float64
}

// TrackerMarks lists a Reader's bookmarks linked to a tracker id of kind
// (AniList: "al"), directly or through a member of their Work.
func (s *Store) TrackerMarks(ctx context.Context, readerID int64, kind string) ([]TrackerMark, error) {
	rows, err := s.pool.Query(ctx, `
		WITH l AS (`+trackerLinkedSQL+`)
		SELECT l.site, l.series_id, l.media_id, coalesce(p.number, 0)::float8
		FROM l LEFT JOIN progress p ON p.reader_id = l.reader_id AND p.site = l.site AND p.series_id = l.series_id
		ORDER BY l.site, l.series_id, l.media_id`, []int64{readerID}, kind)
	if err != nil {
		return nil, fmt.Errorf("store: tracker marks: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (TrackerMark, error) {
		var m TrackerMark
		return m, r.Scan(&m.Site, &m.SeriesID, &m.MediaID, &m.Progress)
	})
	if err != nil {
		return nil, fmt.Errorf("store: tracker marks: %w", err)
	}
	return out, nil
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
	rows, err := tx.Query(ctx, trackerPullSQL, readers, sites, ids, numbers, urls, at)
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

// trackerWantSQL is, for the trackers of service ($1) with push on, a
// token, not refused and not backing off at $3, each linked media's whole
// Progress ($2 the id kind), of the Progress rows that moved since push
// was turned on, where it stands above the remembered remote count (or
// none is remembered). The links are trackerLinkedSQL's, over
// those accounts' Progress rows (a Progress row exists only for a
// bookmark).
const trackerWantSQL = `
	WITH acct AS (
		SELECT reader_id, coalesce(push_since, '-infinity') AS push_since FROM tracker_accounts
		WHERE service = $1 AND push AND token_sealed IS NOT NULL AND state IN ('ok', 'failing')
			AND (next_push_at IS NULL OR next_push_at <= $3)
	), l AS (
		SELECT p.reader_id, i.value AS media_id, p.number
		FROM acct JOIN progress p ON p.reader_id = acct.reader_id AND p.updated_at >= acct.push_since
		JOIN series_ids i ON i.site = p.site AND i.series_id = p.series_id AND i.kind = $2
		UNION ALL
		SELECT p.reader_id, i.value, p.number
		FROM acct JOIN progress p ON p.reader_id = acct.reader_id AND p.updated_at >= acct.push_since
		JOIN work_members m ON m.site = p.site AND m.series_id = p.series_id
		JOIN work_members o ON o.work_id = m.work_id AND (o.site, o.series_id) <> (m.site, m.series_id)
		JOIN series_ids i ON i.site = o.site AND i.series_id = o.series_id AND i.kind = $2
	), want AS (
		SELECT reader_id, media_id, floor(max(number))::int AS n FROM l
		WHERE number <= 100000 GROUP BY reader_id, media_id
	)
	SELECT w.reader_id, w.media_id, w.n FROM want w
	LEFT JOIN tracker_remote r ON r.reader_id = w.reader_id AND r.service = $1 AND r.media_id = w.media_id
	WHERE w.n >= 1 AND (r.progress IS NULL OR w.n > r.progress)`

// RefreshTrackerPending brings the push outbox of service up to now: a
// media whose whole Progress stands above the remembered remote count
// gets a row (since now) when it has none, or its moved_at set to now when
// its whole number moved since the last look, and a row whose media no
// longer needs a push (Progress lowered by hand, the remote caught up, the
// token refused) goes. It returns how many media want a push.
func (s *Store) RefreshTrackerPending(ctx context.Context, service, kind string, now time.Time) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `
		WITH cand AS (`+trackerWantSQL+`),
		ins AS (
			INSERT INTO tracker_pending AS t (reader_id, service, media_id, n, since, moved_at)
			SELECT reader_id, $1, media_id, n, $3, $3 FROM cand
			ON CONFLICT (reader_id, service, media_id) DO UPDATE SET n = excluded.n, moved_at = excluded.moved_at
				WHERE t.n <> excluded.n
		), del AS (
			DELETE FROM tracker_pending t WHERE t.service = $1 AND NOT EXISTS
				(SELECT 1 FROM cand c WHERE c.reader_id = t.reader_id AND c.media_id = t.media_id)
		)
		SELECT count(*) FROM cand`, service, kind, now).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: refresh tracker pending: %w", err)
	}
	return n, nil
}

// TrackerPush is one push taken from the outbox: the Reader's sealed
// token and their Progress on the media now (the highest of the linked
// bookmarks').
type TrackerPush struct {
	ReaderID int64
	MediaID  string
	Progress float64
	Sealed   []byte
}

// TakeTrackerPushes takes (deletes) up to limit outbox rows of service
// that are due: their Progress rested a window (moved_at at or before
// now-window), or they waited maxWait since they opened (a Reader who
// never pauses still pushes). It returns them with the Progress of this
// moment. Rows another process is taking are skipped, so one push is sent
// once; a push that then fails is found again by the next
// RefreshTrackerPending.
func (s *Store) TakeTrackerPushes(ctx context.Context, service, kind string, now time.Time, window, maxWait time.Duration, limit int) ([]TrackerPush, error) {
	rows, err := s.pool.Query(ctx, `
		WITH due AS (
			SELECT reader_id, media_id FROM tracker_pending
			WHERE service = $1 AND (moved_at <= $3::timestamptz - $4 * interval '1 millisecond'
				OR since <= $3::timestamptz - $6 * interval '1 millisecond')
			ORDER BY since, reader_id, media_id LIMIT $5 FOR UPDATE SKIP LOCKED
		), taken AS (
			DELETE FROM tracker_pending t USING due
			WHERE t.service = $1 AND t.reader_id = due.reader_id AND t.media_id = due.media_id
			RETURNING t.reader_id, t.media_id
		)
		SELECT k.reader_id, k.media_id, coalesce(lp.n, 0)::float8, a.token_sealed
		FROM taken k
		JOIN tracker_accounts a ON a.reader_id = k.reader_id AND a.service = $1
		LEFT JOIN LATERAL (
			SELECT max(p.number) AS n FROM progress p
			WHERE p.reader_id = k.reader_id AND (p.site, p.series_id) IN (
				SELECT i.site, i.series_id FROM series_ids i WHERE i.kind = $2 AND i.value = k.media_id
				UNION
				SELECT o.site, o.series_id FROM series_ids i
				JOIN work_members m ON m.site = i.site AND m.series_id = i.series_id
				JOIN work_members o ON o.work_id = m.work_id
				WHERE i.kind = $2 AND i.value = k.media_id)
		) lp ON true
		WHERE a.push AND a.token_sealed IS NOT NULL AND a.state IN ('ok', 'failing')
		ORDER BY k.reader_id, k.media_id`, service, kind, now, window.Milliseconds(), limit, maxWait.Milliseconds())
	if err != nil {
		return nil, fmt.Errorf("store: take tracker pushes: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (TrackerPush, error) {
		var p TrackerPush
		return p, r.Scan(&p.ReaderID, &p.MediaID, &p.Progress, &p.Sealed)
	})
	if err != nil {
		return nil, fmt.Errorf("store: take tracker pushes: %w", err)
	}
	return out, nil
}

// RecordTrackerPush remembers the remote count one push left (written or
// read), and the push's time when it wrote.
func (s *Store) RecordTrackerPush(ctx context.Context, readerID int64, service, mediaID string, remote int, wrote bool, now time.Time) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := rememberRemote(ctx, tx, readerID, service, []TrackerRemote{{MediaID: mediaID, Progress: remote}}, now); err != nil {
			return err
		}
		if wrote {
			_, err := tx.Exec(ctx, `UPDATE tracker_accounts SET last_push_at = $3, updated_at = now()
				WHERE reader_id = $1 AND service = $2`, readerID, service, now)
			return err
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: record tracker push: %w", err)
	}
	return nil
}

// BackOffTrackerPush holds a Reader's pushes until until (the tracker was
// unreachable or rate limiting).
func (s *Store) BackOffTrackerPush(ctx context.Context, readerID int64, service string, until time.Time) error {
	_, err := s.pool.Exec(ctx, `UPDATE tracker_accounts SET next_push_at = $3, updated_at = now()
		WHERE reader_id = $1 AND service = $2`, readerID, service, until)
	if err != nil {
		return fmt.Errorf("store: back off tracker push: %w", err)
	}
	return nil
}
