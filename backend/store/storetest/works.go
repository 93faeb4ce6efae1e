package storetest

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// MemberOpts describe one member of a Work (a work_members row); Site and
// SeriesID are required and the Series must exist.
type MemberOpts struct {
	Site, SeriesID string
	LinkedBy       string     // id:al, id:mal, ... or reader; default id:al
	Offset         string     // added to the member's numbers to give the Work's ("-100"); "": 0
	DriftSince     *time.Time // since when its Latest stands above the others'; nil: not drifting
}

// WorkOpts describe a Work and its members.
type WorkOpts struct {
	Members []MemberOpts
}

// Works inserts Works with their members in one statement, as they are
// (none of the linking rules: a Work of one member, a member linked by a
// kind no id says), and returns the Works' ids in the order given, failing
// the test on error. A test that means the product's linking links by ids
// through the store's AddSeriesIDs instead.
func Works(ctx context.Context, tb testing.TB, st *store.Store, os ...WorkOpts) []int64 {
	tb.Helper()
	var work []int32
	var site, id, by, offset []string
	var drift []*time.Time
	for w, o := range os {
		for _, m := range o.Members {
			if m.LinkedBy == "" {
				m.LinkedBy = "id:al"
			}
			if m.Offset == "" {
				m.Offset = "0"
			}
			work = append(work, int32(w+1))
			site, id, by, offset = append(site, m.Site), append(id, m.SeriesID), append(by, m.LinkedBy), append(offset, m.Offset)
			drift = append(drift, m.DriftSince)
		}
	}
	rows, err := st.Pool().Query(ctx, `WITH w AS (
			SELECT n, nextval(pg_get_serial_sequence('works', 'id')) AS id FROM generate_series(1, $1::int) AS n
		), ins AS (
			INSERT INTO works (id) SELECT id FROM w
		), mem AS (
			INSERT INTO work_members (site, series_id, work_id, linked_by, "offset", drift_since)
			SELECT s, i, w.id, b, o::numeric, d
			FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[]) AS x(n, s, i, b, o, d)
			JOIN w USING (n)
		)
		SELECT id FROM w ORDER BY n`, len(os), work, site, id, by, offset, drift)
	if err != nil {
		tb.Fatalf("storetest: %d works from %s: %v", len(os), first(id), err)
	}
	defer rows.Close()
	ids := make([]int64, 0, len(os))
	for rows.Next() {
		var wid int64
		if err := rows.Scan(&wid); err != nil {
			tb.Fatalf("storetest: works: %v", err)
		}
		ids = append(ids, wid)
	}
	if err := rows.Err(); err != nil {
		tb.Fatalf("storetest: %d works from %s: %v", len(os), first(id), err)
	}
	return ids
}

// ChapterEventOpts describe a Chapter Event (a chapter the Lanes saw
// appear); Site, SeriesID and Number are required and the Series must
// exist.
type ChapterEventOpts struct {
	Site, SeriesID string
	Number         string     // "12"
	Title          string     // default ""
	URL            string     // default "": no link
	SeenAt         *time.Time // nil: the database's now()
}

// ChapterEvents inserts Chapter Events in one statement, with no notices
// owed for them, failing the test on error.
func ChapterEvents(ctx context.Context, tb testing.TB, st *store.Store, os ...ChapterEventOpts) {
	tb.Helper()
	n := len(os)
	site, id, number, title, url, seen := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]*time.Time, n)
	for i, o := range os {
		site[i], id[i], number[i], title[i], url[i], seen[i] = o.Site, o.SeriesID, o.Number, o.Title, o.URL, o.SeenAt
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO chapter_events (site, series_id, number, title, url, seen_at)
		SELECT s, i, n::numeric, t, u, coalesce(a, now())
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[]) AS x(s, i, n, t, u, a)`,
		site, id, number, title, url, seen); err != nil {
		tb.Fatalf("storetest: %d chapter events from %s/%s: %v", n, first(site), first(id), err)
	}
}

// NoticeOpts describe a notice owed to a Reader for a Chapter Event (a
// reader_notices row); every field is required and the event must exist.
type NoticeOpts struct {
	ReaderID       int64
	Site, SeriesID string
	Number         string // the event's chapter number ("12")
}

// Notices owes Readers notices for Chapter Events in one statement, each
// seen when its event was (as the Lanes owe them, with none of their
// rules: bookmarks, notify modes, Works), failing the test on error or
// when an option names no event.
func Notices(ctx context.Context, tb testing.TB, st *store.Store, os ...NoticeOpts) {
	tb.Helper()
	n := len(os)
	reader, site, id, number := make([]int64, n), make([]string, n), make([]string, n), make([]string, n)
	for i, o := range os {
		reader[i], site[i], id[i], number[i] = o.ReaderID, o.Site, o.SeriesID, o.Number
	}
	tag, err := st.Pool().Exec(ctx, `INSERT INTO reader_notices (reader_id, site, series_id, number, event_id, seen_at)
		SELECT x.r, e.site, e.series_id, e.number, e.id, e.seen_at
		FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS x(r, s, i, n)
		JOIN chapter_events e ON e.site = x.s AND e.series_id = x.i AND e.number = x.n::numeric`,
		reader, site, id, number)
	if err != nil {
		tb.Fatalf("storetest: %d notices from %s/%s: %v", n, first(site), first(id), err)
	}
	if tag.RowsAffected() != int64(n) {
		tb.Fatalf("storetest: %d notices from %s/%s: %d named a Chapter Event", n, first(site), first(id), tag.RowsAffected())
	}
}
