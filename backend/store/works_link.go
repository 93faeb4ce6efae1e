package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/safetext"
)

// This file holds Works' linking by evidence (docs/adr/0021-works-link-by-ids.md):
// a Series' external ids are stored with whose word each is, and two
// Series sharing one exact (kind, value) become one Work at once, with no
// Site request: for everyone when both ids are shared (a Site's own word,
// or the crosswalk's), in one Reader's library only when the id is that
// Reader's word (works_link_reader.go). Titles never link here; they only
// suggest.

// The sources of an external id (series_ids.source). A Site's and the
// crosswalk's are shared; every other source is a Reader's word and names
// that Reader (SeriesIDs.ReaderID, series_ids.reader_id).
const (
	IDFromSite      = "site"      // the Site's own page or API
	IDFromCrosswalk = "crosswalk" // the crosswalk's answer for an id a Site gave
	IDFromImport    = "import"    // a Reader's backup's tracking rows or our own export
	IDFromReader    = "reader"    // a Reader named it by hand
	IDFromSync      = "sync"      // a Reader's phone sync
	IDFromTracker   = "tracker"   // a Reader's tracker list entry
)

// The source kinds a Reader sees on a Series' card: a shared id shows its
// source (site, crosswalk); a Reader's own word shows IDMine, another
// Reader's IDAnotherReader, never who.
const (
	IDMine          = "mine"
	IDAnotherReader = "another_reader"
)

// SharedSource says whether ids of this source link for every Reader.
func SharedSource(source string) bool { return source == IDFromSite || source == IDFromCrosswalk }

// ExternalID is one of a Series' external ids: its id in a public
// catalogue. Kind is one of al, mal, mu, mu_legacy, kt, md, mb (the kinds
// of sites.IDKinds; store imports no Site code), Value its canonical form
// (CanonicalExternalID).
type ExternalID struct {
	Kind   string `json:"kind"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// SeriesIDs names a Series and external ids to store for it. ReaderID is
// whose word the ids are: the Reader for every source but a shared one
// (site, crosswalk), for which it is 0.
type SeriesIDs struct {
	Site     string
	SeriesID string
	ReaderID int64
	IDs      []ExternalID
}

// maxIDValue bounds an external id's value (series_ids' CHECK).
const maxIDValue = 100

var idKinds = map[string]bool{"al": true, "mal": true, KindMangaUpdates: true, KindMangaUpdatesLegacy: true,
	"kt": true, "md": true, "mb": true}

var idSources = map[string]bool{IDFromSite: true, IDFromCrosswalk: true, IDFromImport: true,
	IDFromReader: true, IDFromSync: true, IDFromTracker: true}

// ErrBadExternalID is returned for an external id the store refuses; the
// IDError says why.
var ErrBadExternalID = errors.New("store: bad external id")

// IDError is a refused external id, with a sentence a person can act on.
type IDError struct{ Reason string }

func (e *IDError) Error() string { return "store: external id: " + e.Reason }

// Unwrap makes errors.Is(err, ErrBadExternalID) hold.
func (e *IDError) Unwrap() error { return ErrBadExternalID }

// worksLockSQL takes the transaction advisory lock every link holds (two
// int4 keys, so it never meets a Lane's one-key lock).
const worksLockSQL = `SELECT pg_advisory_xact_lock(21, 1)`

// insertIDsSQL stores ids for Series that exist and answers the rows new
// or changed: only those can link anything. A source keeps one id per
// Series, kind and Reader (series_ids_one_key): a later word of the same
// source replaces its earlier one (a Reader's second PUT of a kind, a
// Site's page that changed); the same word again changes nothing. The
// LIMIT keeps the look for each Series a lookup of the primary key: as a
// plain join, a batch of a thousand ids was planned as a hash join over
// the whole series table, a scan per batch.
const insertIDsSQL = `
	INSERT INTO series_ids AS i (site, series_id, kind, value, source, reader_id)
	SELECT u.site, u.series_id, u.kind, u.value, u.source, nullif(u.reader_id, 0)
	FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[])
		AS u(site, series_id, kind, value, source, reader_id)
	CROSS JOIN LATERAL (SELECT FROM series s WHERE s.site = u.site AND s.series_id = u.series_id LIMIT 1) s
	ON CONFLICT ON CONSTRAINT series_ids_one_key DO UPDATE SET value = excluded.value, created_at = now()
		WHERE i.value <> excluded.value
	RETURNING i.site, i.series_id, i.kind, i.value, i.source, coalesce(i.reader_id, 0)`

// LinkResult says what storing external ids did.
type LinkResult struct {
	Added  int // id rows new to the store (or a source's id replaced)
	Linked int // links run that joined or merged a Work
	// LeftOut are ids not stored: a second id of one kind for the same
	// Series and source in one call (the first is kept).
	LeftOut []IDNote
	// NotLinked are a Reader's ids stored but not linked: the Work in
	// that Reader's library holds a Series on that Site already.
	NotLinked []IDNote
}

// IDNote is one id a call stored differently than asked, with a sentence
// saying why.
type IDNote struct {
	Site     string
	SeriesID string
	ID       ExternalID
	Reason   string
	full     *WorkFullError // the refusal, for NameSeriesID
}

// AddSeriesIDs stores external ids of Series already known (ids of an
// unknown Series are skipped) and links the Series that share one, in one
// transaction. A refused id fails the whole call with an *IDError and
// writes nothing. A Reader's id that cannot link (its Work holds that
// Site already) is stored and listed in NotLinked.
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

// NameSeriesID stores an id a Reader names by hand for a Series (source
// reader: it replaces that Reader's own id of the kind) and links it in
// that Reader's library. A link the bound refuses (the Work holds a
// Series on that Site already) fails with a *WorkFullError and saves
// nothing; a refused id fails with an *IDError.
func (s *Store) NameSeriesID(ctx context.Context, readerID int64, site, seriesID string, id ExternalID) error {
	id.Source = IDFromReader
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		res, err := addSeriesIDs(ctx, tx, []SeriesIDs{{Site: site, SeriesID: seriesID, ReaderID: readerID, IDs: []ExternalID{id}}})
		if err == nil && len(res.NotLinked) > 0 {
			return res.NotLinked[0].full
		}
		return err
	})
	var ie *IDError
	var wf *WorkFullError
	switch {
	case errors.As(err, &ie):
		return ie
	case errors.As(err, &wf):
		return wf
	case err != nil:
		return fmt.Errorf("store: name series id: %w", err)
	}
	return nil
}

// idRow is one stored id and whose word it is (0: shared).
type idRow struct {
	site, seriesID, kind, value, source string
	reader                              int64
}

// addSeriesIDs is AddSeriesIDs inside tx: one statement stores every id,
// and only when some row is new does it take the works lock and link:
// the shared pairs for everyone (linkFresh, works_link_set.go), a
// Reader's in that Reader's library (linkReaderWords).
func addSeriesIDs(ctx context.Context, tx pgx.Tx, items []SeriesIDs) (LinkResult, error) {
	return addSeriesIDsQueue(ctx, tx, items, true)
}

// addSeriesIDsQueue is addSeriesIDs; queue says whether the new ids go to
// the crosswalk's queue (false for the crosswalk's own answers: they are
// that answer, and asking about them again would ask the same).
func addSeriesIDsQueue(ctx context.Context, tx pgx.Tx, items []SeriesIDs, queue bool) (LinkResult, error) {
	var res LinkResult
	var site, sid, kind, value, source []string
	var reader []int64
	type key struct {
		site, sid, kind, source string
		reader                  int64
	}
	seen := map[key]string{}
	for _, it := range items {
		for _, id := range it.IDs {
			id, err := CanonicalExternalID(id)
			if err != nil {
				return LinkResult{}, err
			}
			if SharedSource(id.Source) != (it.ReaderID == 0) {
				return LinkResult{}, fmt.Errorf("an id of source %q with Reader %d: only site and crosswalk ids are nobody's word", id.Source, it.ReaderID)
			}
			k := key{it.Site, it.SeriesID, id.Kind, id.Source, it.ReaderID}
			if first, dup := seen[k]; dup {
				if first != id.Value {
					res.LeftOut = append(res.LeftOut, IDNote{Site: it.Site, SeriesID: it.SeriesID, ID: id,
						Reason: fmt.Sprintf("left out: one %s id per Series, and %s was named first", id.Kind, first)})
				}
				continue
			}
			seen[k] = id.Value
			site, sid = append(site, it.Site), append(sid, it.SeriesID)
			kind, value, source = append(kind, id.Kind), append(value, id.Value), append(source, id.Source)
			reader = append(reader, it.ReaderID)
		}
	}
	if len(site) == 0 {
		return res, nil
	}
	rows, err := tx.Query(ctx, insertIDsSQL, site, sid, kind, value, source, reader)
	if err != nil {
		return res, err
	}
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (idRow, error) {
		var x idRow
		err := r.Scan(&x.site, &x.seriesID, &x.kind, &x.value, &x.source, &x.reader)
		return x, err
	})
	if err != nil {
		return res, err
	}
	res.Added = len(got)
	if len(got) == 0 {
		return res, nil
	}
	if queue {
		if err := queueCrosswalk(ctx, tx, got); err != nil {
			return res, err
		}
	}
	if _, err := tx.Exec(ctx, worksLockSQL); err != nil {
		return res, err
	}
	type pair struct{ kind, value string }
	var kinds, values []string
	var words []idRow
	fresh := map[pair]bool{}
	for _, x := range got {
		if x.reader != 0 {
			words = append(words, x)
			continue
		}
		if p := (pair{x.kind, x.value}); !fresh[p] {
			fresh[p] = true
			kinds, values = append(kinds, x.kind), append(values, x.value)
		}
	}
	if len(kinds) > 0 {
		n, err := linkFresh(ctx, tx, kinds, values)
		res.Linked += n
		if err != nil {
			return res, err
		}
	}
	if len(words) > 0 {
		n, notLinked, err := linkReaderWords(ctx, tx, words)
		res.Linked += n
		res.NotLinked = append(res.NotLinked, notLinked...)
		if err != nil {
			return res, err
		}
	}
	return res, nil
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
