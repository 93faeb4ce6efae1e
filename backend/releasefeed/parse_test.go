package releasefeed_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"mangabookmark/backend/releasefeed"
)

// testdata/releases_days.json is one page of GET /v1/releases/days as
// MangaUpdates' published API document (OpenAPI 3.0.0, API version 1.0.0)
// shapes it, read on 2026-12-06 in clients generated from it
// (docs/sources.md ("Ids, MangaBaka and MangaUpdates"), "MU-types"; the nulls where the document
// says plain values follow "MU-notes"). The ids are the research notes'
// examples (rmnzb04 = 60143657332, z5e3xwc = 76513411164, sq81dx9 =
// 62535527613); titles and release ids are made up.
func TestParsePageReadsTheDocumentedShape(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/releases_days.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := releasefeed.ParsePage(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !p.HasNumber || p.Number != 1 || p.PerPage != 25 || p.TotalHits != 3 || p.Rows != 3 || p.Skipped != 0 {
		t.Fatalf("page %+v", p)
	}
	want := []releasefeed.Release{
		{ID: 912345678, SeriesID: 60143657332, Number: "45", Date: "2026-12-06"},
		{ID: 912345677, SeriesID: 76513411164, Number: "15", Date: "2026-12-06"},
		{ID: 912345676, SeriesID: 62535527613, Number: "", Date: "2026-12-05"},
	}
	if len(p.Releases) != len(want) {
		t.Fatalf("releases %+v", p.Releases)
	}
	for i, w := range want {
		if p.Releases[i] != w {
			t.Errorf("release %d = %+v, want %+v", i, p.Releases[i], w)
		}
	}
	if got := p.Releases[0].MU(); got != "60143657332" {
		t.Errorf("mu id %q, want the API number in decimal", got)
	}
}

// A hostile page: the root and results must be what the document says, or
// the page fails with no release; a bad row is skipped and counted, never
// the page's failure, and never a release with a made-up id.
func TestParsePageRefusesWhatTheDocumentDoesNotSay(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{``, `null`, `[]`, `"x"`, `{"results": {}}`, `{"results": "x"}`, `{"results": [`, `<html>`} {
		if p, err := releasefeed.ParsePage([]byte(raw)); err == nil {
			t.Errorf("%q parsed as %+v", raw, p)
		}
	}
	row := func(record, series string) string {
		return `{"record": ` + record + `, "metadata": {"series": ` + series + `}}`
	}
	rows := []string{
		row(`{"id": 1, "chapter": "3"}`, `{"series_id": "60143657332"}`),        // a string id
		row(`{"id": 2, "chapter": "3"}`, `{"series_id": 6.01e10}`),              // an exponent
		row(`{"id": 3, "chapter": "3"}`, `{"series_id": -5}`),                   // negative
		row(`{"id": 4, "chapter": "3"}`, `{"series_id": 99999999999999999999}`), // past 64 bits
		row(`{"id": "5", "chapter": "3"}`, `{"series_id": 7}`),                  // a string release id
		row(`{"id": 6, "chapter": "3"}`, `null`),                                // no series
		`{"record": 7}`, `"row"`, `null`,
		row(`{"id": 8, "chapter": 9, "release_date": 2026}`, `{"series_id": 8}`), // wrong chapter and date types: kept, no number
		row(`{"id": 9, "chapter": "1e3", "release_date": "06/12/2026"}`, `{"series_id": 9}`),
	}
	p, err := releasefeed.ParsePage([]byte(`{"page": "one", "per_page": -1, "total_hits": 1e99, "results": [` + strings.Join(rows, ",") + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.HasNumber || p.PerPage != 0 || p.TotalHits != 0 {
		t.Errorf("wrong-typed paging fields read as %+v", p)
	}
	if p.Rows != len(rows) || p.Skipped != 9 || len(p.Releases) != 2 {
		t.Fatalf("rows %d skipped %d releases %+v", p.Rows, p.Skipped, p.Releases)
	}
	for _, r := range p.Releases {
		if r.Number != "" || r.Date != "" || r.SeriesID != r.ID {
			t.Errorf("release %+v, want no number and no date", r)
		}
	}
}

// A chapter field gives the number the release brings the series to: a
// range gives its end; anything else gives none.
func TestChapterNumbers(t *testing.T) {
	t.Parallel()
	for ch, want := range map[string]string{"12": "12", "012.50": "12.5", "12-15": "15", "12 ~ 13.5": "13.5",
		"": "", "Oneshot": "", "12a": "", "v.3 c.12": "", "1234567": "", "-3": "", "15-12-1": ""} {
		raw := `{"results": [{"record": {"id": 1, "chapter": ` + quote(ch) + `}, "metadata": {"series": {"series_id": 2}}}]}`
		p, err := releasefeed.ParsePage([]byte(raw))
		if err != nil || len(p.Releases) != 1 {
			t.Fatalf("%q: %+v %v", ch, p, err)
		}
		if p.Releases[0].Number != want {
			t.Errorf("chapter %q reads as %q, want %q", ch, p.Releases[0].Number, want)
		}
	}
}

func quote(s string) string { return `"` + s + `"` }

// FuzzParsePage: no input panics, and every release it returns has
// positive ids and a number ParseNumber accepts or none.
func FuzzParsePage(f *testing.F) {
	raw, err := os.ReadFile("testdata/releases_days.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add([]byte(`{"results": [{"record": {"id": 1}, "metadata": {"series": {"series_id": 2}}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := releasefeed.ParsePage(b)
		if err != nil {
			return
		}
		for _, r := range p.Releases {
			if r.ID <= 0 || r.SeriesID <= 0 {
				t.Fatalf("release %+v", r)
			}
		}
		if len(p.Releases)+p.Skipped != p.Rows {
			t.Fatalf("rows %d = %d releases + %d skipped?", p.Rows, len(p.Releases), p.Skipped)
		}
	})
}

// A page of more rows than any page should hold keeps the first thousand
// and counts the rest as skipped.
func TestParsePageBoundsItsRows(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"results": [`)
	for i := 1; i <= 1500; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		b.WriteString(`{"record": {"id": ` + strconv.Itoa(i) + `, "chapter": "1"}, "metadata": {"series": {"series_id": 7}}}`)
	}
	b.WriteString(`]}`)
	p, err := releasefeed.ParsePage([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if p.Rows != 1500 || len(p.Releases) != 1000 || p.Skipped != 500 || p.Releases[999].ID != 1000 {
		t.Fatalf("rows %d, releases %d, skipped %d", p.Rows, len(p.Releases), p.Skipped)
	}
}
