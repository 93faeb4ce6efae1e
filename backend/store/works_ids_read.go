package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Reads of external ids and Work membership, as a Reader may see them:
// shared ids by their source, the Reader's own word as theirs, another
// Reader's word as another Reader's, never whose (docs/adr/0021, "Whose
// word").

// SeriesExternalIDs returns a Series' external ids as the Reader sees
// them, by kind and value: Source is the shared source (site, crosswalk),
// IDMine for the Reader's own word, IDAnotherReader for another Reader's
// (never who). The same id from several sources is one row each.
func (s *Store) SeriesExternalIDs(ctx context.Context, readerID int64, site, seriesID string) ([]ExternalID, error) {
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT kind, value, CASE WHEN reader_id IS NULL THEN source
			WHEN reader_id = $3 THEN '`+IDMine+`' ELSE '`+IDAnotherReader+`' END AS whose
		FROM series_ids WHERE site = $1 AND series_id = $2 ORDER BY kind, value, whose`, site, seriesID, readerID)
	if err != nil {
		return nil, fmt.Errorf("store: series external ids: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ExternalID, error) {
		var id ExternalID
		err := r.Scan(&id.Kind, &id.Value, &id.Source)
		return id, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: series external ids: %w", err)
	}
	return out, nil
}

// ReaderExternalIDs returns the external ids of every Series the Reader
// bookmarks that are shared or the Reader's own word (another Reader's
// are theirs, not this Reader's to export), by (site, series_id), each
// Series' by kind and value, once each.
func (s *Store) ReaderExternalIDs(ctx context.Context, readerID int64) (map[[2]string][]ExternalID, error) {
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT ON (i.site, i.series_id, i.kind, i.value)
			i.site, i.series_id, i.kind, i.value, CASE WHEN i.reader_id IS NULL THEN i.source ELSE '`+IDMine+`' END
		FROM bookmarks b JOIN series_ids i ON i.site = b.site AND i.series_id = b.series_id
		WHERE b.reader_id = $1 AND (i.reader_id IS NULL OR i.reader_id = $1)
		ORDER BY i.site, i.series_id, i.kind, i.value, i.reader_id NULLS FIRST`, readerID)
	if err != nil {
		return nil, fmt.Errorf("store: reader external ids: %w", err)
	}
	defer rows.Close()
	out := map[[2]string][]ExternalID{}
	for rows.Next() {
		var site, sid string
		var id ExternalID
		if err := rows.Scan(&site, &sid, &id.Kind, &id.Value, &id.Source); err != nil {
			return nil, fmt.Errorf("store: reader external ids: %w", err)
		}
		k := [2]string{site, sid}
		out[k] = append(out[k], id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reader external ids: %w", err)
	}
	return out, nil
}

// WorkOf returns the shared Work a Series is a member of, or ErrNotFound.
func (s *Store) WorkOf(ctx context.Context, site, seriesID string) (int64, error) {
	var id int64
	err := s.pool.QueryRow(ctx, `SELECT work_id FROM work_members WHERE site = $1 AND series_id = $2`,
		site, seriesID).Scan(&id)
	if err != nil {
		return 0, notFound("work of", err)
	}
	return id, nil
}

// ReaderWorkOf returns the Work a Series is in as the Reader sees it: the
// Work of the Reader's own hand link of it, else the shared Work it is a
// member of unless the Reader unlinked it (seriesWorkJoins, the one home
// of that rule); ErrNotFound when neither.
func (s *Store) ReaderWorkOf(ctx context.Context, readerID int64, site, seriesID string) (int64, error) {
	var id *int64
	err := s.pool.QueryRow(ctx, `SELECT `+seriesWorkOf("@site", "@series_id"),
		namedArgs{"reader": readerID, "site": site, "series_id": seriesID}).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store: reader work of: %w", err)
	}
	if id == nil {
		return 0, ErrNotFound
	}
	return *id, nil
}
