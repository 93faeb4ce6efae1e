package store

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// The crosswalk's rows (backend/crosswalk; migration 0022): the queue of
// ids a Series gained that MangaBaka's source lookup may know the other
// ids of, and the cache of its answers. The store queues an id in the
// transaction that stores it and wakes the workers (pg_notify: delivered
// at commit); the lookup itself runs in a worker, never in a request.

// CrosswalkKinds are the kinds MangaBaka's source lookup answers for.
var CrosswalkKinds = []string{"al", "mal", KindMangaUpdates, KindMangaUpdatesLegacy, "kt"}

// crosswalkWakeChannel carries "ids queued" between processes.
const crosswalkWakeChannel = "mangabookmark_crosswalk"

// crosswalkClaim is how long a worker holds a queued id it took: a worker
// that dies lets another take it after this.
const crosswalkClaim = 5 * time.Minute

// queueCrosswalkSQL queues the new ids of the crosswalk's kinds, but never
// the crosswalk's own answers (source crosswalk), and wakes the workers.
const queueCrosswalkSQL = `
	WITH q AS (
		INSERT INTO crosswalk_queue (site, series_id, kind, value, source, reader_id)
		SELECT u.site, u.series_id, u.kind, u.value, u.source, nullif(u.reader_id, 0)
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[])
			AS u(site, series_id, kind, value, source, reader_id)
		WHERE u.kind IN ('al', 'mal', 'mu', 'mu_legacy', 'kt') AND u.source <> 'crosswalk'
		ON CONFLICT DO NOTHING
		RETURNING 1
	)
	SELECT pg_notify('` + crosswalkWakeChannel + `', '') FROM (SELECT 1 FROM q LIMIT 1) x`

// queueCrosswalk queues rows (new ids) for the crosswalk.
func queueCrosswalk(ctx context.Context, tx pgx.Tx, rows []idRow) error {
	n := len(rows)
	site, sid, kind, value, source := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	reader := make([]int64, n)
	for i, x := range rows {
		site[i], sid[i], kind[i], value[i], source[i], reader[i] = x.site, x.seriesID, x.kind, x.value, x.source, x.reader
	}
	_, err := tx.Exec(ctx, queueCrosswalkSQL, site, sid, kind, value, source, reader)
	return err
}

// CrosswalkItem is one queued id: a Series gained it, from Source, as
// Reader ReaderID's word (0: shared, a Site's).
type CrosswalkItem struct {
	ID       int64
	Site     string
	SeriesID string
	Kind     string
	Value    string
	Source   string
	ReaderID int64
	Tries    int
}

// ClaimCrosswalk takes up to limit queued ids, oldest first, that no other
// worker holds, and holds them for a while (crosswalkClaim after now).
func (s *Store) ClaimCrosswalk(ctx context.Context, now time.Time, limit int) ([]CrosswalkItem, error) {
	rows, err := s.pool.Query(ctx, `
		UPDATE crosswalk_queue q SET claimed_until = $1::timestamptz + $3 * interval '1 microsecond'
		WHERE q.id IN (SELECT id FROM crosswalk_queue
			WHERE claimed_until IS NULL OR claimed_until <= $1 ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
		RETURNING q.id, q.site, q.series_id, q.kind, q.value, q.source, coalesce(q.reader_id, 0), q.tries`,
		now, limit, crosswalkClaim.Microseconds())
	if err != nil {
		return nil, fmt.Errorf("store: claim crosswalk: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (CrosswalkItem, error) {
		var c CrosswalkItem
		err := r.Scan(&c.ID, &c.Site, &c.SeriesID, &c.Kind, &c.Value, &c.Source, &c.ReaderID, &c.Tries)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: claim crosswalk: %w", err)
	}
	slices.SortFunc(out, func(a, b CrosswalkItem) int { return cmp.Compare(a.ID, b.ID) }) // RETURNING keeps no order
	return out, nil
}

// RetryCrosswalk gives claimed ids back to the queue, in one statement,
// to be taken again at retryAt at the earliest (a 429, a 5xx, no answer);
// tried counts the try (its next wait grows with the count).
func (s *Store) RetryCrosswalk(ctx context.Context, retryAt time.Time, tried bool, ids ...int64) error {
	if len(ids) == 0 {
		return nil
	}
	if _, err := s.pool.Exec(ctx, `UPDATE crosswalk_queue SET claimed_until = $2, tries = tries + $3::int WHERE id = ANY($1)`,
		ids, retryAt, map[bool]int{true: 1}[tried]); err != nil {
		return fmt.Errorf("store: retry crosswalk: %w", err)
	}
	return nil
}

// DropCrosswalk takes an id off the queue (answered, or given up on).
func (s *Store) DropCrosswalk(ctx context.Context, id int64) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM crosswalk_queue WHERE id = $1`, id); err != nil {
		return fmt.Errorf("store: drop crosswalk: %w", err)
	}
	return nil
}

// CrosswalkAnswer is a cached answer of MangaBaka's source lookup for one
// id: Status is the HTTP status (200, 404; 0 for an answer refused as
// hostile), IDs the ids it named (canonical, Source empty). StoryStatus
// is what it says of the story's status (one of the five; "unknown" when
// it names the story without one; "" when it names no story) and
// FinalChapter the story's final chapter ("" for none): kept with the
// ids so an answer from the cache gives the status as a fresh one does
// (RecordMangaBakaStatus).
type CrosswalkAnswer struct {
	Status       int
	IDs          []ExternalID
	FetchedAt    time.Time
	StoryStatus  string
	FinalChapter string
}

// CachedCrosswalk answers the cached answer for (kind, value) fetched at
// or after since, or ok false.
func (s *Store) CachedCrosswalk(ctx context.Context, kind, value string, since time.Time) (CrosswalkAnswer, bool, error) {
	var a CrosswalkAnswer
	var raw []byte
	err := s.pool.QueryRow(ctx, `SELECT status, ids, fetched_at, coalesce(story_status, ''), coalesce(final_chapter::text, '')
		FROM crosswalk_lookups WHERE kind = $1 AND value = $2 AND fetched_at >= $3`, kind, value, since).Scan(
		&a.Status, &raw, &a.FetchedAt, &a.StoryStatus, &a.FinalChapter)
	if errors.Is(err, pgx.ErrNoRows) {
		return CrosswalkAnswer{}, false, nil
	}
	if err != nil {
		return CrosswalkAnswer{}, false, fmt.Errorf("store: cached crosswalk: %w", err)
	}
	if err := json.Unmarshal(raw, &a.IDs); err != nil {
		return CrosswalkAnswer{}, false, fmt.Errorf("store: cached crosswalk: %w", err)
	}
	return a, true, nil
}

// SaveCrosswalk caches the answer for (kind, value). A 200's ids of the
// crosswalk's kinds are cached as answers of their own too: MangaBaka
// answers every one of them with the same series, so a Series gaining one
// of them later asks nothing. It answers the keys it cached, as ids (the
// ids whose Series a refreshed story status reaches).
func (s *Store) SaveCrosswalk(ctx context.Context, kind, value string, a CrosswalkAnswer) ([]ExternalID, error) {
	ids := a.IDs
	if ids == nil {
		ids = []ExternalID{}
	}
	for i := range ids {
		ids[i].Source = ""
	}
	raw, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("store: save crosswalk: %w", err)
	}
	keys := [][2]string{{kind, value}}
	if a.Status == 200 {
		for _, id := range ids {
			if slices.Contains(CrosswalkKinds, id.Kind) && (id.Kind != kind || id.Value != value) {
				keys = append(keys, [2]string{id.Kind, id.Value})
			}
		}
	}
	var story, final *string
	if a.StoryStatus != "" {
		story = &a.StoryStatus
		if a.FinalChapter != "" {
			final = &a.FinalChapter
		}
	}
	b := &pgx.Batch{}
	out := make([]ExternalID, 0, len(keys))
	for _, k := range keys {
		b.Queue(`INSERT INTO crosswalk_lookups (kind, value, status, ids, fetched_at, story_status, final_chapter)
			VALUES ($1, $2, $3, $4, $5, $6, $7::numeric)
			ON CONFLICT (kind, value) DO UPDATE SET status = excluded.status, ids = excluded.ids, fetched_at = excluded.fetched_at,
				story_status = excluded.story_status, final_chapter = excluded.final_chapter`,
			k[0], k[1], a.Status, raw, a.FetchedAt, story, final)
		out = append(out, ExternalID{Kind: k[0], Value: k[1]})
	}
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return nil, fmt.Errorf("store: save crosswalk: %w", err)
	}
	return out, nil
}

// ApplyCrosswalk stores the ids the crosswalk found for a queued id and
// takes the id off the queue, in one transaction. The ids are the Site's
// word's kin (source crosswalk, shared) when a Site gave the queued id,
// else the same Reader's word as the queued id (its source and Reader:
// the crosswalk says no more than the Reader did). A kind the Series
// already carries, as the ids' owner sees it (shared ids, and for a
// Reader's word that Reader's own), is left out: the crosswalk fills what
// is missing and never argues with a Site or a Reader. The new ids link
// like any other and are not queued again.
func (s *Store) ApplyCrosswalk(ctx context.Context, item CrosswalkItem, ids []ExternalID) (LinkResult, error) {
	var res LinkResult
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM crosswalk_queue WHERE id = $1`, item.ID); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT DISTINCT kind FROM series_ids WHERE site = $1 AND series_id = $2
			AND (reader_id IS NULL OR reader_id = nullif($3, 0))`, item.Site, item.SeriesID, item.ReaderID)
		if err != nil {
			return err
		}
		have, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		it := SeriesIDs{Site: item.Site, SeriesID: item.SeriesID, ReaderID: item.ReaderID}
		source := item.Source
		if SharedSource(source) {
			source, it.ReaderID = IDFromCrosswalk, 0
		}
		for _, id := range ids {
			id.Source = source
			c, err := CanonicalExternalID(id)
			if err != nil || slices.Contains(have, c.Kind) {
				continue
			}
			have = append(have, c.Kind)
			it.IDs = append(it.IDs, c)
		}
		res, err = addSeriesIDsQueue(ctx, tx, []SeriesIDs{it}, false)
		if err != nil || item.ReaderID == 0 {
			return err
		}
		// A Reader's queued id links in their library (again: a link made
		// already is kept as it is), which is how migration 0022's
		// converted Reader ids meet the other forms of their story.
		var still bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM series_ids WHERE site = $1 AND series_id = $2
			AND kind = $3 AND value = $4 AND reader_id = $5)`, item.Site, item.SeriesID, item.Kind, item.Value, item.ReaderID).Scan(&still); err != nil || !still {
			return err // the Reader's id changed since: its own storing linked it
		}
		if _, err := tx.Exec(ctx, worksLockSQL); err != nil {
			return err
		}
		n, notLinked, err := linkReaderWords(ctx, tx, []idRow{{site: item.Site, seriesID: item.SeriesID,
			kind: item.Kind, value: item.Value, source: item.Source, reader: item.ReaderID}})
		res.Linked += n
		res.NotLinked = append(res.NotLinked, notLinked...)
		return err
	})
	if err != nil {
		return LinkResult{}, fmt.Errorf("store: apply crosswalk: %w", err)
	}
	return res, nil
}

// ListenCrosswalk calls fn each time some process queued ids for the
// crosswalk (the notice arrives at the queuing transaction's commit), on a
// connection of its own, until ctx ends (nil) or the connection fails (the
// error). onReady, when not nil, runs once listening.
func (s *Store) ListenCrosswalk(ctx context.Context, onReady func(), fn func()) error {
	c, err := connectDedicated(ctx, s.dsn, "")
	if err != nil {
		return fmt.Errorf("store: listen crosswalk: %w", err)
	}
	defer c.Close(context.WithoutCancel(ctx))
	if _, err := c.Exec(ctx, `LISTEN `+crosswalkWakeChannel); err != nil {
		return fmt.Errorf("store: listen crosswalk: %w", err)
	}
	if onReady != nil {
		onReady()
	}
	for {
		if _, err := c.WaitForNotification(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("store: listen crosswalk: %w", err)
		}
		fn()
	}
}
