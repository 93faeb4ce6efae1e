package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
)

// A page script can push any chapter URL into the address bar, and the
// userscript reports it as a read. Two rules keep such a forged read from
// doing lasting harm (docs/adr/0018-forged-reads-and-junk-series.md): a
// read far past the Series' known Latest Chapter is refused, and a Reader
// may turn off the bookmarks reads create (readers.auto_add_reads).

// PastLatestMargin is how many chapters past the Series' known Latest
// Chapter a read may lie. A Site's list lags its newest chapter by a few;
// a read further ahead is refused with ErrPastLatest. While no Latest
// Chapter is known (a Series never read yet) every number is taken.
const PastLatestMargin = 10

// pastLatestCaseSQL is the one SQL text of the rule, with PastLatestMargin
// written into it: over a read u (its number) and its Series s, the
// Series' Latest Chapter number when the read lies more than
// PastLatestMargin past it, else NULL (and NULL while no Latest Chapter is
// known). progressUpsert and guardNew both use it.
var pastLatestCaseSQL = `CASE WHEN u.number::numeric > s.latest_number + ` + strconv.Itoa(PastLatestMargin) + ` THEN s.latest_number::text END`

// ErrPastLatest refuses a read more than PastLatestMargin chapters past the
// Series' known Latest Chapter; nothing is written for it.
var ErrPastLatest = errors.New("store: read past the Latest Chapter")

// Preferences are a Reader's own settings.
type Preferences struct {
	// AutoAddReads: a read of a Series the Reader has no bookmark for
	// creates the bookmark (true by default). When false such a read
	// changes nothing.
	AutoAddReads bool
}

// GetPreferences returns a Reader's Preferences, or ErrNotFound for an
// unknown Reader.
func (s *Store) GetPreferences(ctx context.Context, readerID int64) (Preferences, error) {
	var p Preferences
	err := s.pool.QueryRow(ctx, `SELECT auto_add_reads FROM readers WHERE id = $1`, readerID).Scan(&p.AutoAddReads)
	if err != nil {
		return Preferences{}, notFound("get preferences", err)
	}
	return p, nil
}

// SetPreferences stores a Reader's Preferences; ErrNotFound for an unknown
// Reader.
func (s *Store) SetPreferences(ctx context.Context, readerID int64, p Preferences) error {
	tag, err := s.pool.Exec(ctx, `UPDATE readers SET auto_add_reads = $2 WHERE id = $1`, readerID, p.AutoAddReads)
	if err != nil {
		return fmt.Errorf("store: set preferences: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

// guardNew decides, before any bookmark is created, the reads at idx (one
// Reader's, none of them bookmarked): a read too far past a known Latest
// Chapter is refused (out[i].Refused), and when the Reader turned
// AutoAddReads off every read is left as ignored. It returns the reads that
// may go on to admission.
func (s *Store) guardNew(ctx context.Context, tx pgx.Tx, reads []Read, idx []int, out []ReadResult) ([]int, error) {
	sites, ids, numbers := make([]string, len(idx)), make([]string, len(idx)), make([]string, len(idx))
	for k, i := range idx {
		sites[k], ids[k], numbers[k] = reads[i].Site, reads[i].SeriesID, reads[i].Number
	}
	rows, err := tx.Query(ctx, `
		SELECT coalesce((SELECT auto_add_reads FROM readers WHERE id = $1), true),
			`+pastLatestCaseSQL+`
		FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(site, series_id, number, i)
		LEFT JOIN series s ON s.site = u.site AND s.series_id = u.series_id
		ORDER BY u.i`, reads[idx[0]].ReaderID, sites, ids, numbers)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var pass []int
	for k := 0; rows.Next(); k++ {
		var auto bool
		var past *string
		if err := rows.Scan(&auto, &past); err != nil {
			return nil, err
		}
		i := idx[k]
		switch {
		case past != nil:
			out[i] = ReadResult{Refused: ErrPastLatest, Latest: *past}
		case !auto:
			out[i] = ReadResult{}
		default:
			pass = append(pass, i)
		}
	}
	return pass, rows.Err()
}
