// Package storetest seeds rows for tests outside store, so a schema change
// is made here once rather than in every package's test SQL (river's
// testfactory is the model). Each function takes the test, the store and
// an options struct whose zero fields take the defaults they name, writes
// in one statement and fails the test on error:
//
//   - Series, Readers, Bookmarks, Progress, Cover, ChapterEvents, Notices,
//     Works (with their members), NotifySettings, Outlet, Delivery, Pass
//     and Failure insert rows (Failure and Lane upsert; Pass goes through
//     the store's own InsertPass; CopyImport copies an import job); those
//     that take a batch (options...) write it in one unnest statement, so
//     a benchmark's 2,000 rows are one call;
//   - SetSeries, SetBookmarks, SetSeen, SetHolder, AgeLane and
//     SetTrackerAccount change rows a test made through the product (a
//     Latest Chapter, a bookmark's age, notify mode or maker, a notice's
//     age, a silent Lane holder, hours passed on a Lane, a tracker user
//     renamed), and fail the test when they match no row; ClearFailure
//     ends a failure.
//
// Raw SQL stays in a test only where the row itself is the attack: text
// the store would have cleaned, a secret in a shape it no longer writes.
package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// SeriesOpts describe a Series row; Site and ID are required.
type SeriesOpts struct {
	Site, ID     string
	URL          string     // default https://{site}.test/series/{id}
	Title        string     // default "{site} title {id}"
	CheckedAt    *time.Time // latest_checked_at; nil: never checked
	CreatedAt    *time.Time // nil: the database's now()
	LatestNumber string     // the Latest Chapter's number ("10.5"); "": none
	LatestTitle  string     // the Latest Chapter's title; default ""
	LatestURL    string     // the Latest Chapter's link; default ""
	SeenAt       *time.Time // latest_seen_at; nil: none
	MaxNumber    string     // the highest number ever read, past which a read is a Chapter Event; "": none
}

// Series inserts Series in one statement, failing the test on error.
func Series(ctx context.Context, tb testing.TB, st *store.Store, os ...SeriesOpts) {
	tb.Helper()
	n := len(os)
	site, id, url, title, latest, most := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	chTitle, chURL := make([]string, n), make([]string, n)
	checked, created, seen := make([]*time.Time, n), make([]*time.Time, n), make([]*time.Time, n)
	for i, o := range os {
		if o.URL == "" {
			o.URL = fmt.Sprintf("https://%s.test/series/%s", o.Site, o.ID)
		}
		if o.Title == "" {
			o.Title = fmt.Sprintf("%s title %s", o.Site, o.ID)
		}
		site[i], id[i], url[i], title[i], latest[i], most[i] = o.Site, o.ID, o.URL, o.Title, o.LatestNumber, o.MaxNumber
		checked[i], created[i], seen[i], chTitle[i], chURL[i] = o.CheckedAt, o.CreatedAt, o.SeenAt, o.LatestTitle, o.LatestURL
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO series (site, series_id, url, title, latest_checked_at, created_at, latest_number, latest_seen_at, max_number, latest_title, latest_url)
		SELECT s, i, u, t, c, coalesce(cr, now()), nullif(n, '')::numeric, se, nullif(m, '')::numeric, lt, lu
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[], $7::text[], $8::timestamptz[], $9::text[], $10::text[], $11::text[])
			AS x(s, i, u, t, c, cr, n, se, m, lt, lu)`, site, id, url, title, checked, created, latest, seen, most, chTitle, chURL); err != nil {
		tb.Fatalf("storetest: %d series from %s: %v", n, first(site), err)
	}
}

// SeriesSet names Series and what to change on them; a zero field is left
// as it is.
type SeriesSet struct {
	Site   string   // "": every Site
	IDs    []string // nil: every Series of Site
	Except []string // Series left out

	Title        string
	CoverURL     string
	CheckedAt    *time.Time // latest_checked_at
	Unchecked    bool       // latest_checked_at back to never
	CreatedAt    *time.Time
	ForcePollAt  *time.Time
	LatestNumber string // the Latest Chapter's number
	LatestTitle  string
	LatestURL    string
	SeenAt       *time.Time // latest_seen_at
}

// SetSeries changes the Series o names, failing the test on error or when
// it names none.
func SetSeries(ctx context.Context, tb testing.TB, st *store.Store, o SeriesSet) {
	tb.Helper()
	tag, err := st.Pool().Exec(ctx, `UPDATE series SET
			title = coalesce(nullif($4, ''), title),
			cover_url = coalesce(nullif($5, ''), cover_url),
			latest_checked_at = CASE WHEN $7 THEN NULL ELSE coalesce($6, latest_checked_at) END,
			created_at = coalesce($8, created_at),
			force_poll_at = coalesce($9, force_poll_at),
			latest_number = coalesce(nullif($10, '')::numeric, latest_number),
			latest_title = coalesce(nullif($11, ''), latest_title),
			latest_url = coalesce(nullif($12, ''), latest_url),
			latest_seen_at = coalesce($13, latest_seen_at)
		WHERE ($1 = '' OR site = $1) AND ($2::text[] IS NULL OR series_id = ANY($2)) AND NOT series_id = ANY(coalesce($3::text[], '{}'))`,
		o.Site, o.IDs, o.Except, o.Title, o.CoverURL, o.CheckedAt, o.Unchecked, o.CreatedAt, o.ForcePollAt,
		o.LatestNumber, o.LatestTitle, o.LatestURL, o.SeenAt)
	if err != nil {
		tb.Fatalf("storetest: set series %s %v: %v", o.Site, o.IDs, err)
	}
	if tag.RowsAffected() == 0 {
		tb.Fatalf("storetest: set series %s %v: no Series matched", o.Site, o.IDs)
	}
}

// first names a batch in an error: its first element.
func first(s []string) string {
	if len(s) == 0 {
		return "nothing"
	}
	return s[0]
}

// At is t's address, for the options' optional times.
func At(t time.Time) *time.Time { return &t }
