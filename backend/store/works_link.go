package store

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/safetext"
)

// This file holds Works' linking by evidence (docs/adr/0021-works-link-by-ids.md):
// a Series' external ids are stored, and two Series sharing one exact
// (kind, value) become one Work at once, for everyone, with no Site
// request. Titles never link here; they only suggest.

// The sources of an external id (series_ids.source).
const (
	IDFromSite    = "site"    // the Site's own page or API
	IDFromImport  = "import"  // a backup's tracking rows or our own export
	IDFromReader  = "reader"  // a Reader named it by hand
	IDFromTracker = "tracker" // a tracker's list entry
)

// ExternalID is one of a Series' external ids: its id in a public
// catalogue. Kind is one of al, mal, mu, kt, md, mb (the kinds of
// sites.IDKinds; store imports no Site code).
type ExternalID struct {
	Kind   string `json:"kind"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// SeriesIDs names a Series and external ids to store for it.
type SeriesIDs struct {
	Site     string
	SeriesID string
	IDs      []ExternalID
}

// maxIDValue bounds an external id's value (series_ids' CHECK).
const maxIDValue = 100

// idValueRE is what an external id's value may hold: catalogue ids are
// numbers, uuids and base-36 slugs.
var idValueRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

var idKinds = map[string]bool{"al": true, "mal": true, "mu": true, "kt": true, "md": true, "mb": true}

var idSources = map[string]bool{IDFromSite: true, IDFromImport: true, IDFromReader: true, IDFromTracker: true}

// ErrBadExternalID is returned for an external id the store refuses; the
// IDError says why.
var ErrBadExternalID = errors.New("store: bad external id")

// IDError is a refused external id, with a sentence a person can act on.
type IDError struct{ Reason string }

func (e *IDError) Error() string { return "store: external id: " + e.Reason }

// Unwrap makes errors.Is(err, ErrBadExternalID) hold.
func (e *IDError) Unwrap() error { return ErrBadExternalID }

// CheckExternalID says whether the store keeps this id; a refusal is an
// *IDError.
func CheckExternalID(id ExternalID) error {
	switch {
	case !idKinds[id.Kind]:
		return &IDError{Reason: fmt.Sprintf("%q is not a kind of external id (al, mal, mu, kt, md, mb).", safetext.Line(id.Kind))}
	case id.Value == "" || len(id.Value) > maxIDValue || !idValueRE.MatchString(id.Value):
		return &IDError{Reason: fmt.Sprintf("the value of an external id is 1 to %d letters, digits, '.', '_' or '-'.", maxIDValue)}
	case !idSources[id.Source]:
		return &IDError{Reason: fmt.Sprintf("%q is not a source of external ids.", safetext.Line(id.Source))}
	}
	return nil
}

// worksLockSQL takes the transaction advisory lock every link holds (two
// int4 keys, so it never meets a Lane's one-key lock).
const worksLockSQL = `SELECT pg_advisory_xact_lock(21, 1)`

// insertIDsSQL stores ids for Series that exist and answers the (kind,
// value) pairs new to the table: only those can link anything. The
// LIMIT keeps the look for each Series a lookup of the primary key: as a
// plain join, a batch of a thousand ids was planned as a hash join over
// the whole series table, a scan per batch.
const insertIDsSQL = `
	INSERT INTO series_ids (site, series_id, kind, value, source)
	SELECT u.site, u.series_id, u.kind, u.value, u.source
	FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS u(site, series_id, kind, value, source)
	CROSS JOIN LATERAL (SELECT FROM series s WHERE s.site = u.site AND s.series_id = u.series_id LIMIT 1) s
	ON CONFLICT DO NOTHING
	RETURNING kind, value`

// LinkResult says what storing external ids did.
type LinkResult struct {
	Added  int // id rows new to the store
	Linked int // links run that joined or merged a Work
}

// AddSeriesIDs stores external ids of Series already known (ids of an
// unknown Series are skipped) and links the Series that share one, in one
// transaction. A refused id fails the whole call with an *IDError and
// writes nothing.
func (s *Store) AddSeriesIDs(ctx context.Context, items []SeriesIDs) (LinkResult, error) {
	var res LinkResult
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		res, err = addSeriesIDs(ctx, tx, items)
		return err
	})
	if err != nil {
		var ie *IDError
		if errors.As(err, &ie) {
			return LinkResult{}, ie
		}
		return LinkResult{}, fmt.Errorf("store: add series ids: %w", err)
	}
	return res, nil
}

// addSeriesIDs is AddSeriesIDs inside tx: one statement stores every id,
// and only when some (kind, value) is new does it take the works lock and
// link the new pairs (works_link_set.go).
func addSeriesIDs(ctx context.Context, tx pgx.Tx, items []SeriesIDs) (LinkResult, error) {
	var site, sid, kind, value, source []string
	for _, it := range items {
		for _, id := range it.IDs {
			if err := CheckExternalID(id); err != nil {
				return LinkResult{}, err
			}
			site, sid = append(site, it.Site), append(sid, it.SeriesID)
			kind, value, source = append(kind, id.Kind), append(value, id.Value), append(source, id.Source)
		}
	}
	if len(site) == 0 {
		return LinkResult{}, nil
	}
	rows, err := tx.Query(ctx, insertIDsSQL, site, sid, kind, value, source)
	if err != nil {
		return LinkResult{}, err
	}
	type pair struct{ kind, value string }
	var fresh []pair
	seen := map[pair]bool{}
	for rows.Next() {
		var p pair
		if err := rows.Scan(&p.kind, &p.value); err != nil {
			rows.Close()
			return LinkResult{}, err
		}
		if !seen[p] {
			seen[p] = true
			fresh = append(fresh, p)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return LinkResult{}, err
	}
	res := LinkResult{Added: int(rows.CommandTag().RowsAffected())}
	if len(fresh) == 0 {
		return res, nil
	}
	if _, err := tx.Exec(ctx, worksLockSQL); err != nil {
		return res, err
	}
	kinds, values := make([]string, len(fresh)), make([]string, len(fresh))
	for i, p := range fresh {
		kinds[i], values[i] = p.kind, p.value
	}
	n, err := linkFresh(ctx, tx, kinds, values)
	res.Linked = n
	return res, err
}

// SeriesExternalIDs returns a Series' external ids by kind and value.
func (s *Store) SeriesExternalIDs(ctx context.Context, site, seriesID string) ([]ExternalID, error) {
	rows, err := s.pool.Query(ctx, `SELECT kind, value, source FROM series_ids
		WHERE site = $1 AND series_id = $2 ORDER BY kind, value`, site, seriesID)
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
// bookmarks, by (site, series_id), each Series' by kind and value.
func (s *Store) ReaderExternalIDs(ctx context.Context, readerID int64) (map[[2]string][]ExternalID, error) {
	rows, err := s.pool.Query(ctx, `SELECT i.site, i.series_id, i.kind, i.value, i.source
		FROM bookmarks b JOIN series_ids i ON i.site = b.site AND i.series_id = b.series_id
		WHERE b.reader_id = $1 ORDER BY i.site, i.series_id, i.kind, i.value`, readerID)
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

// UnlinkMember takes a Series out of a Work for the Reader. A shared
// member leaves the Work for good: ids never link it to this Work again
// (work_unlinks), whoever reads them. A member the Reader holds by their
// own hand link, not yet confirmed (Pending), loses that link only: other
// Readers' hand links stay, and no unlink is recorded (the link was this
// Reader's word alone). ErrNotFound when the Series is neither.
func (s *Store) UnlinkMember(ctx context.Context, readerID, workID int64, site, seriesID string) error {
	var gone bool
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, worksLockSQL); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `
			WITH m AS (
				DELETE FROM work_members WHERE work_id = $1 AND site = $2 AND series_id = $3 RETURNING 1
			), u AS (
				INSERT INTO work_unlinks (work_id, site, series_id, reader_id)
				SELECT $1, $2, $3, $4 FROM m ON CONFLICT DO NOTHING
			), h AS (
				DELETE FROM work_hand_links
				WHERE reader_id = $4 AND work_id = $1 AND site = $2 AND series_id = $3 RETURNING 1
			)
			SELECT EXISTS (SELECT 1 FROM m) OR EXISTS (SELECT 1 FROM h)`, workID, site, seriesID, readerID).Scan(&gone)
	})
	if err != nil {
		return fmt.Errorf("store: unlink member: %w", err)
	}
	if !gone {
		return ErrNotFound
	}
	return nil
}

// maxAltTitles bounds the other titles kept per Series.
const maxAltTitles = 30

// storeReadIdentity stores what a good read says of the Series' identity:
// its other titles (when it lists any) and its external ids, linking on
// new ones (inside the read's transaction).
func storeReadIdentity(ctx context.Context, tx pgx.Tx, site, seriesID string, f ReadFacts) error {
	if alt := cleanAltTitles(f.AltTitles); len(alt) > 0 {
		if _, err := tx.Exec(ctx, `UPDATE series SET alt_titles = $3
			WHERE site = $1 AND series_id = $2 AND alt_titles IS DISTINCT FROM $3`, site, seriesID, alt); err != nil {
			return err
		}
	}
	if len(f.IDs) == 0 {
		return nil
	}
	item := SeriesIDs{Site: site, SeriesID: seriesID}
	for _, id := range f.IDs {
		id.Source = IDFromSite
		// A malformed id on a Site's page is the Site's noise, not a
		// Reader's input: it is left out, and the read is recorded.
		if CheckExternalID(id) == nil {
			item.IDs = append(item.IDs, id)
		}
	}
	_, err := addSeriesIDs(ctx, tx, []SeriesIDs{item})
	return err
}

// cleanAltTitles keeps the non-empty, distinct other titles, cleaned and
// bounded like every Site text (safetext.Line), at most maxAltTitles.
func cleanAltTitles(in []string) []string {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, t := range in {
		t = safetext.Line(t)
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
		if len(out) == maxAltTitles {
			break
		}
	}
	return out
}
