package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The push's rows: the outbox that coalesces a minute of reads into one
// write, the counts a push leaves, the back-off. Times come from the
// caller's clock.

// trackerWantSQL is, for the trackers of service ($1) with push on, a
// token, not refused and not backing off at $3, each linked media's whole
// Progress ($2 the id kind), of the Progress rows that moved since push
// was turned on, where it stands above the remembered remote count (or
// none is remembered) and the push may write it. The links are
// trackerSoleSQL's (ids that count for the Reader, one media a bookmark),
// over those accounts' Progress rows (a Progress row exists only for a
// bookmark); trackerMayWriteSQL says which media a push may write.
var trackerWantSQL = `
	WITH acct AS (
		SELECT reader_id, coalesce(push_since, '-infinity') AS push_since FROM tracker_accounts
		WHERE service = $1 AND push AND token_sealed IS NOT NULL AND state IN ('ok', 'failing')
			AND (next_push_at IS NULL OR next_push_at <= $3)
	), sole AS (` + trackerSoleSQL(`b.reader_id IN (SELECT reader_id FROM acct)`) + `
	), want AS (
		SELECT s.reader_id, s.media_id, floor(max(p.number))::int AS n
		FROM sole s JOIN acct ON acct.reader_id = s.reader_id
		JOIN progress p ON p.reader_id = s.reader_id AND p.site = s.site AND p.series_id = s.series_id
			AND p.updated_at >= acct.push_since
		WHERE p.number <= 100000 GROUP BY s.reader_id, s.media_id
	)
	SELECT w.reader_id, w.media_id, w.n FROM want w
	LEFT JOIN tracker_remote r ON r.reader_id = w.reader_id AND r.service = $1 AND r.media_id = w.media_id
	WHERE w.n >= 1 AND (r.progress IS NULL OR w.n > r.progress) AND ` + trackerMayWriteSQL

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
	// Named: the Reader's own id names the media, so the push may add it
	// to their list; otherwise it only raises an entry already there.
	Named bool
	// State is the Reader's reading state of the media when they set it by
	// hand (their linked bookmark's set last), "" otherwise: the push
	// sends it as the entry's status.
	State string
}

// TakeTrackerPushes takes (deletes) service's due outbox rows, at most one
// per Reader and at most limit Readers, in round robin: the Readers after
// after (by id) first, then from the lowest id, so a Reader with 200
// pushes waiting takes one turn like a Reader with one. A row is due when
// its Progress rested a window (moved_at at or before now-window), or it
// waited maxWait since it opened (a Reader who never pauses still
// pushes), and its Reader's pushes are not backing off. It returns them
// with the Progress of this moment, in turn order. Rows another process
// is taking are skipped, so one push is sent once; a push that then fails
// is found again by the next RefreshTrackerPending.
func (s *Store) TakeTrackerPushes(ctx context.Context, service, kind string, now time.Time, window, maxWait time.Duration, after int64, limit int) ([]TrackerPush, error) {
	rows, err := s.pool.Query(ctx, `
		WITH first AS (
			SELECT DISTINCT ON (t.reader_id) t.reader_id, t.media_id
			FROM tracker_pending t
			JOIN tracker_accounts a ON a.reader_id = t.reader_id AND a.service = t.service
			WHERE t.service = $1 AND (t.moved_at <= $3::timestamptz - $4 * interval '1 millisecond'
				OR t.since <= $3::timestamptz - $6 * interval '1 millisecond')
				AND (a.next_push_at IS NULL OR a.next_push_at <= $3)
			ORDER BY t.reader_id, t.since, t.media_id
		), due AS (
			SELECT t.reader_id, t.media_id FROM tracker_pending t
			JOIN first f ON f.reader_id = t.reader_id AND f.media_id = t.media_id
			WHERE t.service = $1
			ORDER BY t.reader_id <= $7, t.reader_id LIMIT $5 FOR UPDATE OF t SKIP LOCKED
		), taken AS (
			DELETE FROM tracker_pending t USING due
			WHERE t.service = $1 AND t.reader_id = due.reader_id AND t.media_id = due.media_id
			RETURNING t.reader_id, t.media_id
		)
		SELECT k.reader_id, k.media_id, coalesce(lp.n, 0)::float8, a.token_sealed,
			EXISTS (SELECT 1 FROM series_ids o WHERE o.kind = $2 AND o.value = k.media_id AND o.reader_id = k.reader_id),
			coalesce(hs.state, '')
		FROM taken k
		JOIN tracker_accounts a ON a.reader_id = k.reader_id AND a.service = $1
		LEFT JOIN LATERAL (
			SELECT max(p.number) AS n FROM progress p
			JOIN (`+trackerSoleSQL(`b.reader_id = k.reader_id`)+`) s
				ON s.site = p.site AND s.series_id = p.series_id AND s.media_id = k.media_id
			WHERE p.reader_id = k.reader_id
		) lp ON true
		LEFT JOIN LATERAL (
			SELECT hb.state FROM bookmarks hb
			JOIN (`+trackerSoleSQL(`b.reader_id = k.reader_id`)+`) s
				ON s.site = hb.site AND s.series_id = hb.series_id AND s.media_id = k.media_id
			WHERE hb.reader_id = k.reader_id AND hb.state_by_hand
			ORDER BY hb.state_at DESC NULLS LAST, hb.site, hb.series_id LIMIT 1
		) hs ON true
		WHERE a.push AND a.token_sealed IS NOT NULL AND a.state IN ('ok', 'failing')
		ORDER BY k.reader_id <= $7, k.reader_id`, service, kind, now, window.Milliseconds(), limit, maxWait.Milliseconds(), after)
	if err != nil {
		return nil, fmt.Errorf("store: take tracker pushes: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (TrackerPush, error) {
		var p TrackerPush
		return p, r.Scan(&p.ReaderID, &p.MediaID, &p.Progress, &p.Sealed, &p.Named, &p.State)
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
