package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// A Reader's word (docs/adr/0021-works-link-by-ids.md, "Whose word"): an
// id a Reader named, imported, synced or a tracker of theirs gave links
// the Series carrying it inside that Reader's library only, exactly as a
// hand link does (work_hand_links). It meets the Series that carry the
// same id as a shared id (a Site's, the crosswalk's) and those that carry
// it as the same Reader's word; never another Reader's word. When a
// second Reader's word makes the same link, the hand links confirm it
// (confirmHandLinkSQL) and it holds for everyone: a second independent
// source said so.

// ErrWorkFull is the refusal of a link that would give a Work a second
// Series on one Site: a Work holds at most one member per Site.
var ErrWorkFull = errors.New("store: a Work holds one Series per Site")

// WorkFullError is a link refused by the bound, with a sentence a person
// can act on.
type WorkFullError struct {
	WorkID int64
	Site   string // the Site the Work holds a Series on already
}

func (e *WorkFullError) Error() string {
	if e.WorkID == 0 {
		return "nothing was linked: " + e.Why()
	}
	return "nothing was linked: " + e.Why() + "; unlink that one first if this is the story"
}

// Why is the refusal's reason, without what was (not) done.
func (e *WorkFullError) Why() string {
	if e.WorkID == 0 {
		return fmt.Sprintf("both Series are on %s, and a Work holds one Series per Site", e.Site)
	}
	return fmt.Sprintf("Work %d already holds a Series on %s, and a Work holds one Series per Site", e.WorkID, e.Site)
}

// Unwrap makes errors.Is(err, ErrWorkFull) hold.
func (e *WorkFullError) Unwrap() error { return ErrWorkFull }

// readerCarriersSQL lists, for each of a Reader's new ids ($1..$5 by
// ordinal), the other Series carrying the same (kind, value) as a shared
// id or as that same Reader's word.
const readerCarriersSQL = `
	SELECT DISTINCT f.ord, i.site, i.series_id
	FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY
		AS f(reader_id, site, series_id, kind, value, ord)
	JOIN series_ids i ON i.kind = f.kind AND i.value = f.value
		AND (i.reader_id IS NULL OR i.reader_id = f.reader_id)
	WHERE NOT (i.site = f.site AND i.series_id = f.series_id)
	ORDER BY f.ord, i.site, i.series_id`

// linkReaderWords links, for each Reader's id in words, its Series with
// every other Series carrying the id as that Reader sees it, by that
// Reader's hand links. It answers how many links were made and the ids
// the bound refused. The caller holds the works lock.
func linkReaderWords(ctx context.Context, tx pgx.Tx, words []idRow) (int, []IDNote, error) {
	readers := make([]int64, len(words))
	site, sid, kind, value := make([]string, len(words)), make([]string, len(words)), make([]string, len(words)), make([]string, len(words))
	for i, x := range words {
		readers[i], site[i], sid[i], kind[i], value[i] = x.reader, x.site, x.seriesID, x.kind, x.value
	}
	rows, err := tx.Query(ctx, readerCarriersSQL, readers, site, sid, kind, value)
	if err != nil {
		return 0, nil, err
	}
	type carrier struct {
		ord int
		ref SeriesRef
	}
	cs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (carrier, error) {
		var c carrier
		err := r.Scan(&c.ord, &c.ref.Site, &c.ref.SeriesID)
		return c, err
	})
	if err != nil {
		return 0, nil, err
	}
	linked := 0
	var refused []IDNote
	for _, c := range cs {
		x := words[c.ord-1]
		_, err := linkByHandTx(ctx, tx, x.reader, SeriesRef{Site: x.site, SeriesID: x.seriesID}, c.ref, false)
		var full *WorkFullError
		switch {
		case errors.As(err, &full):
			refused = append(refused, IDNote{Site: x.site, SeriesID: x.seriesID,
				ID: ExternalID{Kind: x.kind, Value: x.value}, Reason: full.Why(), full: full})
		case errors.Is(err, ErrNotFound):
			// The Reader bookmarks neither, or unlinked one of them:
			// nothing of theirs to link.
		case err != nil:
			return linked, refused, err
		default:
			linked++
		}
	}
	return linked, refused, nil
}

// siteTakenSQL says whether Work $2, as Reader $1 sees it (its shared
// members and the Reader's hand links to it), holds a Series on Site $3
// other than $4.
const siteTakenSQL = `SELECT EXISTS (
		SELECT 1 FROM work_members WHERE work_id = $2 AND site = $3 AND series_id <> $4
		UNION ALL
		SELECT 1 FROM work_hand_links WHERE reader_id = $1 AND work_id = $2 AND site = $3 AND series_id <> $4)`

// checkSiteFree answers a *WorkFullError when Work work, as the Reader
// sees it, holds another Series on x's Site.
func checkSiteFree(ctx context.Context, tx pgx.Tx, readerID, work int64, x SeriesRef) error {
	var taken bool
	if err := tx.QueryRow(ctx, siteTakenSQL, readerID, work, x.Site, x.SeriesID).Scan(&taken); err != nil {
		return err
	}
	if taken {
		return &WorkFullError{WorkID: work, Site: x.Site}
	}
	return nil
}
