package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/safetext"
)

// ReaderLimits bound what one Reader can add, so one Reader cannot fill the
// Lanes with work (docs/adr/0010-fair-due-order-and-reader-limits.md).
type ReaderLimits struct {
	// NewSeriesPerHour is how many Series a Reader's bookmarks and reads may
	// create: a bucket holding at most this many, refilled at this rate per
	// hour. Bookmarking a Series that already exists costs nothing here.
	NewSeriesPerHour int
	// MaxBookmarks is the most bookmarks one Reader may keep.
	MaxBookmarks int
	// MaxNeverRead is the most of a Reader's bookmarks whose Series never
	// read ok (no Latest Chapter seen yet) the Reader may keep: junk
	// Series count towards this smaller cap as well as MaxBookmarks. Zero
	// means no such cap.
	MaxNeverRead int
}

// BookmarkCapReason is the one sentence that tells a Reader ErrBookmarkLimit
// refused something: the cap, that nothing was saved, and what to do.
func (l ReaderLimits) BookmarkCapReason() string {
	return fmt.Sprintf("you keep %d bookmarks, the most one Reader may; nothing was saved for it; "+
		"remove bookmarks you no longer read, then send it again", l.MaxBookmarks)
}

// DefaultReaderLimits are the limits a Store starts with.
var DefaultReaderLimits = ReaderLimits{NewSeriesPerHour: 100, MaxBookmarks: 5000, MaxNeverRead: 200}

// ErrNewSeriesLimit refuses a bookmark or read that would create a Series
// when the Reader has used the hour's allowance of new Series.
var ErrNewSeriesLimit = errors.New("store: new Series limit reached")

// ErrBookmarkLimit refuses a new bookmark (or a read that would create one)
// when the Reader already keeps ReaderLimits.MaxBookmarks bookmarks.
var ErrBookmarkLimit = errors.New("store: bookmark limit reached")

// ErrNeverReadLimit refuses a new bookmark of a Series that never read ok
// (or a read that would create one) when the Reader already keeps
// ReaderLimits.MaxNeverRead such bookmarks.
var ErrNeverReadLimit = errors.New("store: never-read bookmark limit reached")

// SetReaderLimits replaces the limits. Call it before the Store is shared
// (start-up, tests).
func (s *Store) SetReaderLimits(l ReaderLimits) { s.limits = l }

// SetClock makes the Reader limits' allowance refill on now instead of the
// wall clock (tests and the import service's test clock). Call it before
// the Store is shared; nil restores the wall clock.
func (s *Store) SetClock(now func() time.Time) { s.now = now }

// clock is the time the allowance of new Series refills by.
func (s *Store) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

// ReaderLimits returns the limits in force.
func (s *Store) ReaderLimits() ReaderLimits { return s.limits }

// Who added a bookmark (bookmarks.added_by).
const (
	addedByReader = "reader" // an explicit add: the API or the library page
	addedByRead   = "read"   // a reported read of a Series not bookmarked yet
)

// wantedBookmark is a bookmark a request needs that the Reader may not have.
type wantedBookmark struct {
	Site, SeriesID, URL string
}

// admission is the verdict on one wantedBookmark.
type admission struct {
	Created bool  // the bookmark was added by this call
	Refused error // ErrNewSeriesLimit or ErrBookmarkLimit; nothing written
}

// admitBookmarks decides, in order, which of wants the Reader may add,
// then creates their Series (attributed to the Reader) and bookmarks, all
// in tx. The Reader's limits row is locked first, so concurrent requests
// of one Reader are decided one after the other.
func (s *Store) admitBookmarks(ctx context.Context, tx pgx.Tx, readerID int64, addedBy string, wants []wantedBookmark) ([]admission, error) {
	perHour := float64(s.limits.NewSeriesPerHour)
	var tokens float64
	var have, neverRead int
	err := tx.QueryRow(ctx, `
		INSERT INTO reader_limits AS l (reader_id, tokens, at) VALUES ($1, $2, $3)
		ON CONFLICT (reader_id) DO UPDATE SET
			tokens = least($2, l.tokens + greatest(0, extract(epoch FROM $3 - l.at)) * $2 / 3600.0),
			at = $3
		RETURNING tokens, (SELECT count(*) FROM bookmarks WHERE reader_id = $1),
			(SELECT count(*) FROM bookmarks b JOIN series s ON s.site = b.site AND s.series_id = b.series_id
				WHERE b.reader_id = $1 AND s.latest_seen_at IS NULL)`, readerID, perHour, s.clock()).Scan(&tokens, &have, &neverRead)
	if err != nil {
		return nil, err
	}
	sites, ids := make([]string, len(wants)), make([]string, len(wants))
	for i, w := range wants {
		sites[i], ids[i] = w.Site, w.SeriesID
	}
	rows, err := tx.Query(ctx, `
		SELECT s.series_id IS NOT NULL, b.reader_id IS NOT NULL, s.latest_seen_at IS NOT NULL
		FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(site, series_id, i)
		LEFT JOIN series s ON s.site = u.site AND s.series_id = u.series_id
		LEFT JOIN bookmarks b ON b.reader_id = $1 AND b.site = u.site AND b.series_id = u.series_id
		ORDER BY u.i`, readerID, sites, ids)
	if err != nil {
		return nil, err
	}
	exists, marked, everRead := make([]bool, 0, len(wants)), make([]bool, 0, len(wants)), make([]bool, 0, len(wants))
	for rows.Next() {
		var e, m, r bool
		if err := rows.Scan(&e, &m, &r); err != nil {
			rows.Close()
			return nil, err
		}
		exists, marked, everRead = append(exists, e), append(marked, m), append(everRead, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]admission, len(wants))
	allowance, spent := tokens, 0
	var addSites, addIDs, addURLs []string
	decided := map[wantedBookmark]error{}
	for i, w := range wants {
		key := wantedBookmark{Site: w.Site, SeriesID: w.SeriesID}
		if verdict, seen := decided[key]; seen { // the same Series twice in one request
			out[i].Refused = verdict
			continue
		}
		var verdict error
		switch {
		case marked[i]:
		case have >= s.limits.MaxBookmarks:
			verdict = ErrBookmarkLimit
		case !everRead[i] && s.limits.MaxNeverRead > 0 && neverRead >= s.limits.MaxNeverRead:
			verdict = ErrNeverReadLimit
		case !exists[i] && tokens < 1:
			verdict = ErrNewSeriesLimit
		default:
			have++
			if !everRead[i] {
				neverRead++
			}
			if !exists[i] {
				tokens--
			}
			out[i].Created = true
			addSites, addIDs, addURLs = append(addSites, w.Site), append(addIDs, w.SeriesID), append(addURLs, safetext.URL(w.URL))
		}
		decided[key] = verdict
		out[i].Refused = verdict
	}
	if len(addSites) > 0 {
		// One statement: the bookmarks' foreign key check runs at its end and
		// sees the Series rows the CTE inserted. A Series that exists already
		// is left as it is (and costs nothing).
		var created int
		err := tx.QueryRow(ctx, `
			WITH s AS (
				INSERT INTO series (site, series_id, url, created_by)
				SELECT site, series_id, url, $1 FROM unnest($2::text[], $3::text[], $4::text[]) AS u(site, series_id, url)
				ON CONFLICT (site, series_id) DO NOTHING
				RETURNING 1
			), b AS (
				INSERT INTO bookmarks (reader_id, site, series_id, added_by)
				SELECT $1, site, series_id, $5 FROM unnest($2::text[], $3::text[]) AS u(site, series_id)
				ON CONFLICT (reader_id, site, series_id) DO NOTHING
			)
			SELECT count(*) FROM s`, readerID, addSites, addIDs, addURLs, addedBy).Scan(&created)
		if err != nil {
			return nil, err
		}
		// Charge what was really created: a Series another Reader created
		// meanwhile costs nothing.
		spent = created
	}
	if _, err := tx.Exec(ctx, `UPDATE reader_limits SET tokens = $2 WHERE reader_id = $1`, readerID, allowance-float64(spent)); err != nil {
		return nil, err
	}
	return out, nil
}
