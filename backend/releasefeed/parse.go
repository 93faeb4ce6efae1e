package releasefeed

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"

	"mangabookmark/backend/sites"
)

// The answer's shape follows MangaUpdates' published API document (its
// OpenAPI 3.0.0 document, API version 1.0.0), as read on 2026-12-06 in two
// clients generated from it (docs/sources.md ("Ids, MangaBaka and MangaUpdates"), "MU-types"):
// ReleaseSearchResponseV1 is {total_hits, page, per_page, results}; each
// result is {record: ReleaseModelSearchV1 {id, title, volume, chapter,
// groups, release_date, time_added}, metadata: {series: SeriesModelSearchV1
// {series_id, ...}}}. The series id (an integer, the API number) is only
// in metadata, so every request asks include_metadata=true.

// maxRows bounds the results one page may give; the rest are ignored and
// counted as skipped.
const maxRows = 1000

// Release is one release row the feed could use.
type Release struct {
	ID       int64  // the release's id (record.id)
	SeriesID int64  // MangaUpdates' API number of its series
	Number   string // its chapter as sites.ParseNumber's decimal, "" when none can be read
	Date     string // its release_date as given when it is YYYY-MM-DD, else ""
}

// MU is the release's series id as the store keeps a canonical mu id:
// the API number in decimal.
func (r Release) MU() string { return strconv.FormatInt(r.SeriesID, 10) }

// Page is one page of the feed as parsed.
type Page struct {
	Number    int  // the answer's page (0 when absent or not a number)
	HasNumber bool // the answer named its page
	PerPage   int  // the answer's per_page (0 when absent)
	TotalHits int  // the answer's total_hits (0 when absent)
	Releases  []Release
	Rows      int // result rows on the page, usable or not
	Skipped   int // rows without a usable id or series id
}

// errShape is an answer that is not the documented object.
var errShape = errors.New("the answer is not the documented release list (an object with a results array)")

// ParsePage reads one answer of GET /v1/releases/days. The root must be an
// object whose results is an array (or absent or null: an empty page);
// anything else is errShape. Each row is read on its own: a row whose
// record.id or metadata.series.series_id is not a positive integer is
// skipped and counted, never the page's failure; a chapter that is not a
// string reads as no number.
func ParsePage(raw []byte) (Page, error) {
	var root struct {
		TotalHits json.RawMessage   `json:"total_hits"`
		Page      json.RawMessage   `json:"page"`
		PerPage   json.RawMessage   `json:"per_page"`
		Results   []json.RawMessage `json:"results"`
	}
	if !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		return Page{}, errShape
	}
	if err := json.Unmarshal(raw, &root); err != nil {
		return Page{}, errShape
	}
	p := Page{}
	p.Number, p.HasNumber = smallInt(root.Page)
	p.PerPage, _ = smallInt(root.PerPage)
	p.TotalHits, _ = smallInt(root.TotalHits)
	p.Rows = len(root.Results)
	for i, row := range root.Results {
		if i >= maxRows {
			p.Skipped += len(root.Results) - i
			break
		}
		r, ok := parseRow(row)
		if !ok {
			p.Skipped++
			continue
		}
		p.Releases = append(p.Releases, r)
	}
	return p, nil
}

func parseRow(raw json.RawMessage) (Release, bool) {
	var row struct {
		Record struct {
			ID      json.RawMessage `json:"id"`
			Chapter json.RawMessage `json:"chapter"`
			Date    json.RawMessage `json:"release_date"`
		} `json:"record"`
		Metadata struct {
			Series struct {
				SeriesID json.RawMessage `json:"series_id"`
			} `json:"series"`
		} `json:"metadata"`
	}
	if json.Unmarshal(raw, &row) != nil {
		return Release{}, false
	}
	id, ok1 := positiveInt(row.Record.ID)
	sid, ok2 := positiveInt(row.Metadata.Series.SeriesID)
	if !ok1 || !ok2 {
		return Release{}, false
	}
	var ch string
	if json.Unmarshal(row.Record.Chapter, &ch) != nil {
		ch = ""
	}
	var date string
	if json.Unmarshal(row.Record.Date, &date) != nil || !releaseDate.MatchString(date) {
		date = ""
	}
	return Release{ID: id, SeriesID: sid, Number: chapterNumber(ch), Date: date}, true
}

// positiveInt reads a JSON integer above zero that fits 63 bits: no
// string, no fraction, no exponent.
func positiveInt(raw json.RawMessage) (int64, bool) {
	s := string(bytes.TrimSpace(raw))
	if s == "" || s[0] < '1' || s[0] > '9' {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}

// smallInt reads a non-negative JSON integer below a billion.
func smallInt(raw json.RawMessage) (int, bool) {
	s := string(bytes.TrimSpace(raw))
	if s == "0" {
		return 0, true
	}
	n, ok := positiveInt(raw)
	if !ok || n >= 1e9 {
		return 0, false
	}
	return int(n), true
}

// releaseDate is the form of record.release_date: YYYY-MM-DD.
var releaseDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// chapterRange is a release of several chapters ("12-15", "12~15"): the
// hint is for the last of them.
var chapterRange = regexp.MustCompile(`^\s*\d{1,6}(?:\.\d{1,4})?\s*[-~]\s*(\d{1,6}(?:\.\d{1,4})?)\s*$`)

// chapterNumber is the chapter a release brings the series to, as a
// store decimal, or "" when its chapter field gives none (a volume, an
// extra, a oneshot).
func chapterNumber(ch string) string {
	if n, ok := sites.ParseNumber(ch); ok {
		return n
	}
	if m := chapterRange.FindStringSubmatch(ch); m != nil {
		if n, ok := sites.ParseNumber(m[1]); ok {
			return n
		}
	}
	return ""
}
