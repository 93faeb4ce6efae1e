package store_test

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// workEventSites are the six Sites: the largest Work allowed holds one
// member on each (a Work holds at most one member per Site).
var workEventSites = []string{"comix", "kagane", "mangadex", "mangapill", "natomanga", "weebcentral"}

const workEventReaders = 200

// BenchmarkWorkEventLargest is one Chapter Event (RecordOK of a new
// number) on a member of the largest Work allowed: six members, one per
// Site, linked by a Site's shared id; 200 Readers each bookmark three of
// them, a third of them with their own offset on a member, each with
// Progress and earlier notices in the Work. The reference, in the same
// run, is the same read on a lone Series the same 200 Readers bookmark.
// Each event owes every Reader one notice (the number is new to the Work
// and above every Progress), so both statements do the same fan-out; the
// difference is the Work's rules (told once, each Reader's offsets and
// unlinks, drift). Reported: the median of each (ms) and their ratio
// (issue 41, W5-5: a Work of 2,001 members made one event take 27 s).
func BenchmarkWorkEventLargest(b *testing.B) {
	st := dbtest.New(b)
	ctx := context.Background()
	exec := func(q string, args ...any) {
		b.Helper()
		if _, err := st.Pool().Exec(ctx, q, args...); err != nil {
			b.Fatal(err)
		}
	}
	for _, s := range workEventSites {
		exec(`INSERT INTO series (site, series_id, url) VALUES ($1, 'w', 'https://' || $1 || '.example/w')`, s)
	}
	exec(`INSERT INTO series (site, series_id, url) VALUES ('mangapill', 'lone', 'https://mangapill.example/lone')`)
	exec(fmt.Sprintf(`INSERT INTO readers (discord_id) SELECT 'we' || g FROM generate_series(1, %d) g`, workEventReaders))
	var items []store.SeriesIDs
	for _, s := range workEventSites {
		items = append(items, store.SeriesIDs{Site: s, SeriesID: "w", IDs: []store.ExternalID{{Kind: "al", Value: "4141", Source: store.IDFromSite}}})
	}
	if _, err := st.AddSeriesIDs(ctx, items); err != nil {
		b.Fatal(err)
	}
	// Reader k (by id order) bookmarks members k, k+1 and k+3 (mod 6) and
	// the lone Series; every third sets their own offset of 0.5 on their
	// first member (a decimal: it never meets a whole number of another
	// member's).
	exec(`WITH r AS (SELECT id, row_number() OVER (ORDER BY id) AS k FROM readers),
		s AS (SELECT site, row_number() OVER (ORDER BY site) - 1 AS i FROM series WHERE series_id = 'w')
		INSERT INTO bookmarks (reader_id, site, series_id, created_at)
		SELECT r.id, s.site, 'w', now() - interval '1 day' FROM r JOIN s ON s.i IN (r.k % 6, (r.k + 1) % 6, (r.k + 3) % 6)
		UNION ALL SELECT r.id, 'mangapill', 'lone', now() - interval '1 day' FROM r`)
	exec(`WITH r AS (SELECT id, row_number() OVER (ORDER BY id) AS k FROM readers),
		s AS (SELECT site, row_number() OVER (ORDER BY site) - 1 AS i FROM series WHERE series_id = 'w')
		INSERT INTO work_reader_offsets (reader_id, work_id, site, series_id, "offset")
		SELECT r.id, m.work_id, m.site, 'w', 0.5 FROM r JOIN s ON s.i = r.k % 6
		JOIN work_members m ON m.site = s.site AND m.series_id = 'w' WHERE r.k % 3 = 0`)
	now := time.Now()
	// Baselines at 100 (first reads), then Progress 100 on every bookmark
	// and two earlier chapters (on Comix and the lone Series) told.
	for _, s := range append(workEventSites, "lone") {
		site, id := s, "w"
		if s == "lone" {
			site, id = "mangapill", "lone"
		}
		if _, err := st.RecordOK(ctx, site, id, store.ReadFacts{Number: "100"}, now); err != nil {
			b.Fatal(err)
		}
	}
	exec(`INSERT INTO progress (reader_id, site, series_id, number, read_at) SELECT reader_id, site, series_id, 100, now() FROM bookmarks`)
	exec(`ANALYZE`) // a served database has its statistics
	// A served database's connections plan with its statistics: the
	// pool's connections, which prepared the statement while the tables
	// were empty, are opened again (a plan kept from then made the Work's
	// event grow with every notice, 2.2 s after 30 events).
	st.Pool().Reset()
	read := func(site, id string, n int, at time.Time) (time.Duration, int) {
		b.Helper()
		start := time.Now()
		r, err := st.RecordOK(ctx, site, id, store.ReadFacts{Number: fmt.Sprint(n), ChURL: fmt.Sprintf("https://%s.example/%s/%d", site, id, n)}, at)
		if err != nil {
			b.Fatal(err)
		}
		return time.Since(start), r.Owed
	}
	for n := 101; n <= 102; n++ { // earlier chapters, told
		now = now.Add(time.Minute)
		read("comix", "w", n, now)
		read("mangapill", "lone", n, now)
	}
	var work, lone []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 103 + i
		now = now.Add(time.Minute)
		d, owed := read(workEventSites[i%len(workEventSites)], "w", n, now)
		if owed != workEventReaders {
			b.Fatalf("the Work's event %d owed %d notices, want %d", n, owed, workEventReaders)
		}
		work = append(work, d)
		d, owed = read("mangapill", "lone", n, now)
		if owed != workEventReaders {
			b.Fatalf("the lone Series' event %d owed %d notices, want %d", n, owed, workEventReaders)
		}
		lone = append(lone, d)
	}
	b.StopTimer()
	w, l := medianMS(work), medianMS(lone)
	b.ReportMetric(w, "work_event_ms")
	b.ReportMetric(l, "lone_event_ms")
	b.ReportMetric(w/l, "work/lone")
}

// medianMS is the median of ds in milliseconds.
func medianMS(ds []time.Duration) float64 {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return float64(s[len(s)/2].Microseconds()) / 1000
}
