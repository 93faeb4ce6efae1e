package store

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/jackc/pgx/v5"
)

// MangaBaka's word on a story's status (migration 0026;
// docs/adr/0031-status-and-reading-states.md, second addendum). The
// crosswalk (backend/crosswalk) reads it from each source lookup's answer
// that names the story, fresh or from its cache (crosswalk_lookups keeps
// it), and gives it to every Series that carries one of the answer's ids
// as a shared id: series.mb_status, beside the Series' own page's
// series.status, which it never touches. A story's status is the more
// advanced of the two (storyStatus), a Work's the most advanced over its
// members' both (recordWorkStatus): MangaBaka counts as one more source.

// RecordMangaBakaStatus gives MangaBaka's word on a story, from an answer
// fetched at fetchedAt that names ids, to each Series carrying one of ids
// as a shared id (reader_id NULL: a Site's, or the crosswalk's from an id
// a Site gave; a Reader's own id is their word, ADR 0021, and
// series.mb_status is everyone's). status is one of the five ("unknown":
// the answer names the story but says nothing of its status);
// finalChapter its final chapter ("" for none). A Series whose word came
// from a later answer keeps it. Each Series is its own transaction,
// under its row's lock, then its Work's (recordWorkStatus): a change of
// the story's status is recorded and owed once, as a read's is. It
// answers how many Series' MangaBaka word changed.
func (s *Store) RecordMangaBakaStatus(ctx context.Context, ids []ExternalID, status, finalChapter string, fetchedAt, now time.Time) (int, error) {
	if _, ok := statusRank[status]; !ok && status != StatusUnknown {
		return 0, fmt.Errorf("store: record mangabaka status: %q is no status", status)
	}
	if len(ids) == 0 {
		return 0, nil
	}
	kinds, values := make([]string, len(ids)), make([]string, len(ids))
	for i, id := range ids {
		kinds[i], values[i] = id.Kind, id.Value
	}
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT site, series_id FROM series_ids
		WHERE reader_id IS NULL AND (kind, value) IN (SELECT * FROM unnest($1::text[], $2::text[]))
		ORDER BY site, series_id`, kinds, values)
	if err != nil {
		return 0, fmt.Errorf("store: record mangabaka status: %w", err)
	}
	type key struct{ site, id string }
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (key, error) {
		var k key
		return k, r.Scan(&k.site, &k.id)
	})
	if err != nil {
		return 0, fmt.Errorf("store: record mangabaka status: %w", err)
	}
	var final *string
	if finalChapter != "" {
		final = &finalChapter
	}
	n := 0
	for _, k := range keys {
		changed, err := recordMangaBaka(ctx, s, k.site, k.id, status, final, fetchedAt, now)
		if err != nil {
			return n, err
		}
		if changed {
			n++
		}
	}
	return n, nil
}

// recordMangaBaka is RecordMangaBakaStatus for one Series.
func recordMangaBaka(ctx context.Context, s *Store, site, seriesID, status string, final *string, fetchedAt, now time.Time) (bool, error) {
	var changed bool
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var own, ownFinal, mb, mbFinal *string
		var at *time.Time
		err := tx.QueryRow(ctx, `SELECT status, final_chapter::text, mb_status, mb_final_chapter::text, mb_status_at
			FROM series WHERE site = $1 AND series_id = $2 FOR UPDATE`, site, seriesID).Scan(&own, &ownFinal, &mb, &mbFinal, &at)
		if err != nil {
			return err
		}
		if at != nil && at.After(fetchedAt) {
			return nil // a later answer spoke already
		}
		if _, err := tx.Exec(ctx, `UPDATE series SET mb_status = $3, mb_final_chapter = $4::numeric, mb_status_at = $5
			WHERE site = $1 AND series_id = $2`, site, seriesID, status, final, fetchedAt); err != nil {
			return err
		}
		if deref(mb) == status && sameNumber(mbFinal, final) {
			return nil
		}
		changed = true
		return storyChanged(ctx, tx, site, seriesID, storyStatus(deref(own), deref(mb)),
			storyWord(deref(own), ownFinal, status, final), now)
	})
	if err != nil {
		return false, fmt.Errorf("store: record mangabaka status: %w", err)
	}
	return changed, nil
}

// sameNumber says whether two final chapters are the same number (nil is
// none): "249" and "249.0" are one.
func sameNumber(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	x, okA := new(big.Rat).SetString(*a)
	y, okB := new(big.Rat).SetString(*b)
	return okA && okB && x.Cmp(y) == 0
}

// QueueCrosswalkRefresh queues, for up to limit bookmarked Series whose
// MangaBaka word is older than before (every cached answer for their
// shared ids of the crosswalk's kinds was fetched before it), one of
// those ids, so the crosswalk asks again and the word follows the story
// (a Site's id before one the crosswalk gave; the oldest answer first).
// MangaBaka refreshes a series at least every 7 days and its source
// routes cache as long (crosswalk.CacheFor), so asking sooner learns
// nothing. A Series already queued is left alone. It answers how many it
// queued.
func (s *Store) QueueCrosswalkRefresh(ctx context.Context, before time.Time, limit int) (int, error) {
	tag, err := s.pool.Exec(ctx, `
		INSERT INTO crosswalk_queue (site, series_id, kind, value, source)
		SELECT site, series_id, kind, value, source FROM (
			SELECT DISTINCT ON (s.site, s.series_id) s.site, s.series_id, i.kind, i.value, i.source, l.fetched_at
			FROM series s
			JOIN series_ids i ON i.site = s.site AND i.series_id = s.series_id AND i.reader_id IS NULL
				AND i.kind IN ('al', 'mal', 'mu', 'mu_legacy', 'kt')
			JOIN crosswalk_lookups l ON l.kind = i.kind AND l.value = i.value
			WHERE s.mb_status IS NOT NULL
				AND EXISTS (SELECT 1 FROM bookmarks b WHERE b.site = s.site AND b.series_id = s.series_id)
				AND NOT EXISTS (SELECT 1 FROM crosswalk_queue q WHERE q.site = s.site AND q.series_id = s.series_id)
				AND NOT EXISTS (SELECT 1 FROM series_ids i2 JOIN crosswalk_lookups l2 ON l2.kind = i2.kind AND l2.value = i2.value
					WHERE i2.site = s.site AND i2.series_id = s.series_id AND i2.reader_id IS NULL AND l2.fetched_at >= $1)
			ORDER BY s.site, s.series_id, i.source = 'crosswalk', l.fetched_at, i.kind
		) r ORDER BY fetched_at LIMIT $2
		ON CONFLICT DO NOTHING`, before, limit)
	if err != nil {
		return 0, fmt.Errorf("store: queue crosswalk refresh: %w", err)
	}
	return int(tag.RowsAffected()), nil
}
