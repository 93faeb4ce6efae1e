// Package releasefeedtest is a local stand-in for MangaUpdates' release
// list (`GET /v1/releases/days`) for tests, benchmarks and the demo.
//
// Its answers follow MangaUpdates' published API document (OpenAPI 3.0.0,
// API version 1.0.0) as read on 2026-12-06 in two clients generated from
// it (docs/sources.md ("Ids, MangaBaka and MangaUpdates"), "MU-types" and "MU-notes"):
// ReleaseSearchResponseV1 {total_hits, page, per_page, results[]}, each
// result {record: ReleaseModelSearchV1 {id, title, volume, chapter,
// groups[{name, group_id, url}], release_date, time_added{timestamp,
// as_rfc3339, as_string}}, metadata: {series: SeriesModelSearchV1
// {series_id, title, url, ...}}}; volume and chapter are strings,
// series_id the API number. The first page is 1 when page is omitted
// (undocumented: public clients differ), and a page holds PerPage rows
// whatever perpage asks (MU-notes saw per_page answer 25 when 2 was asked).
package releasefeedtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Row is one release the stand-in lists.
type Row struct {
	ID       int64  // record.id
	SeriesID int64  // metadata.series.series_id (the API number)
	Chapter  string // record.chapter ("12", "12-13", "")
	Date     string // record.release_date; "" : the day of Added, else 2026-12-06
	Title    string // record.title; "" : "Series <SeriesID>"
	Added    time.Time
}

// Server is the stand-in. Its methods are safe for concurrent use.
type Server struct {
	URL string // its origin, for Client and TRACKER_ORIGINS

	mu       sync.Mutex
	rows     []Row // newest first
	perPage  int
	hostile  func(w http.ResponseWriter, r *http.Request) bool
	requests []url.Values
	source   func() []Row
}

// Start starts a stand-in serving rows (newest first), PerPage 25, closed
// when the test ends.
func Start(tb testing.TB, rows ...Row) *Server {
	tb.Helper()
	s := &Server{rows: rows, perPage: 25}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// SetRows replaces what the list holds (newest first).
func (s *Server) SetRows(rows ...Row) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rows, s.source = rows, nil
}

// SetSource makes the list whatever src returns at each request (newest
// first): a benchmark's simulated day.
func (s *Server) SetSource(src func() []Row) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.source = src
}

// SetPerPage sets how many rows a page holds.
func (s *Server) SetPerPage(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.perPage = n
}

// SetHostile installs h in front of the documented answer: when h returns
// true it has answered (a hostile answer), else the stand-in answers.
// Nil removes it.
func (s *Server) SetHostile(h func(w http.ResponseWriter, r *http.Request) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hostile = h
}

// Requests returns the query of every request so far, in order.
func (s *Server) Requests() []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]url.Values(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.URL.Query())
	hostile, rows, per := s.hostile, s.rows, s.perPage
	if s.source != nil {
		rows = s.source()
	}
	s.mu.Unlock()
	if hostile != nil && hostile(w, r) {
		return
	}
	if r.Method != http.MethodGet || r.URL.Path != "/v1/releases/days" {
		http.Error(w, `{"status":"exception","reason":"not found"}`, http.StatusNotFound)
		return
	}
	page := 1
	if v := r.URL.Query().Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			http.Error(w, `{"status":"exception","reason":"page"}`, http.StatusBadRequest)
			return
		}
		page = n
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(Answer(rows, page, per, r.URL.Query().Get("include_metadata") == "true"))
}

// Answer is the documented answer for page (1-based) of rows at per rows
// a page, with the series metadata when meta is set.
func Answer(rows []Row, page, per int, meta bool) map[string]any {
	lo := min((page-1)*per, len(rows))
	hi := min(lo+per, len(rows))
	results := make([]any, 0, hi-lo)
	for _, row := range rows[lo:hi] {
		results = append(results, result(row, meta))
	}
	return map[string]any{"total_hits": len(rows), "page": page, "per_page": per, "results": results}
}

func result(row Row, meta bool) map[string]any {
	added := row.Added
	if added.IsZero() {
		added = time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)
	}
	date := row.Date
	if date == "" {
		date = added.UTC().Format(time.DateOnly)
	}
	title := row.Title
	if title == "" {
		title = "Series " + strconv.FormatInt(row.SeriesID, 10)
	}
	out := map[string]any{
		"record": map[string]any{
			"id": row.ID, "title": title, "volume": "", "chapter": row.Chapter,
			"groups":       []any{map[string]any{"name": "A Group", "group_id": 1234567890, "url": "https://www.mangaupdates.com/group/abc1234/a-group"}},
			"release_date": date,
			"time_added": map[string]any{"timestamp": added.Unix(), "as_rfc3339": added.UTC().Format(time.RFC3339),
				"as_string": added.UTC().Format("January 2, 2006 3:04pm MST")},
		},
	}
	if meta {
		out["metadata"] = map[string]any{"series": map[string]any{
			"series_id": row.SeriesID, "title": title,
			"url":  "https://www.mangaupdates.com/series/" + strconv.FormatInt(row.SeriesID, 36) + "/" + strings.ToLower(strings.ReplaceAll(title, " ", "-")),
			"type": "Manga", "year": "2020", "bayesian_rating": 7.5, "rating_votes": 100,
			"genres": []any{map[string]any{"genre": "Action"}}, "latest_chapter": 12,
			"last_updated": map[string]any{"timestamp": added.Unix(), "as_rfc3339": added.UTC().Format(time.RFC3339), "as_string": ""},
		}}
	}
	return out
}
