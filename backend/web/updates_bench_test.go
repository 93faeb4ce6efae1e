package web_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/store"
)

// updatesEvents is how many Chapter Events seedUpdates2000 holds.
const updatesEvents = 20000

// seedUpdates2000 is seedLibrary2000Works (2000 bookmarks, two thirds in
// two-Site Works, about 18,000 weekly Chapter Events) topped up with
// half-chapters to updatesEvents events, and every bookmark made 100
// days before the events began, so Updates holds every story's chapters
// (a Work's once per number).
func seedUpdates2000(ctx context.Context, tb testing.TB, st *store.Store) {
	seedLibrary2000Works(ctx, tb, st)
	// Half-chapters below each Series' events, a Series at a time, until
	// the count is reached: each its own number, seen a day after the
	// chapter below it.
	if _, err := st.Pool().Exec(ctx, `
		INSERT INTO chapter_events (site, series_id, number, title, url, seen_at)
		SELECT site, series_id, number - 0.5, '', url || '.5', seen_at - interval '6 days'
		FROM (SELECT e.*, row_number() OVER (ORDER BY e.series_id::int, e.number DESC) AS n FROM chapter_events e) x
		WHERE n <= $1 - (SELECT count(*) FROM chapter_events)`, updatesEvents); err != nil {
		tb.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `UPDATE bookmarks SET created_at = $1`, admintest.Now.Add(-100*24*time.Hour)); err != nil {
		tb.Fatal(err)
	}
	var n int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM chapter_events`).Scan(&n); err != nil || n != updatesEvents {
		tb.Fatalf("seeded %d Chapter Events (%v), want %d", n, err, updatesEvents)
	}
	analyze(ctx, tb, st)
}

// BenchmarkWebUpdates2000: the Updates page of a Reader with 2000
// bookmarks (two thirds in Works) and 20,000 Chapter Events, its first
// page and an older one (by cursor), and GET /api/updates, beside GET
// /api/bookmarks of the same Reader in the same run.
func BenchmarkWebUpdates2000(b *testing.B) {
	s := newBenchServer(b, seedUpdates2000)
	older := s.olderUpdates(b)
	b.Run("page", func(b *testing.B) {
		s.serve(b, "/updates", true)
		b.ReportMetric(float64(s.updateRows(b, "/updates")), "rows")
	})
	b.Run("page_older", func(b *testing.B) { s.serve(b, older, true) })
	b.Run("api", func(b *testing.B) { s.serve(b, "/api/updates", false) })
	b.Run("json", func(b *testing.B) { s.serve(b, "/api/bookmarks", false) })
}

// updateRows reads the page at path once and counts its rows.
func (s *benchServer) updateRows(b *testing.B, path string) int {
	req := httptest.NewRequest("GET", path, nil)
	req.AddCookie(s.cookie)
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	n := strings.Count(rec.Body.String(), `<li class="item"`)
	if n == 0 {
		b.Fatalf("GET %s has no rows", path)
	}
	return n
}

// olderUpdates follows the Older link ten pages deep.
func (s *benchServer) olderUpdates(b *testing.B) string {
	path := "/updates"
	for range 10 {
		req := httptest.NewRequest("GET", path, nil)
		req.AddCookie(s.cookie)
		rec := httptest.NewRecorder()
		s.h.ServeHTTP(rec, req)
		body := rec.Body.String()
		i := strings.Index(body, `rel="next"`)
		j := strings.LastIndex(body[:max(i, 0)], `href="`)
		if i < 0 || j < 0 {
			b.Fatalf("GET %s has no Older link", path)
		}
		path = strings.ReplaceAll(body[j+len(`href="`):i-2], "&amp;", "&")
	}
	return path
}
