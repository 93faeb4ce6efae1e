package kagane

import (
	"encoding/json"
	"strings"
	"testing"

	"mangabookmark/backend/sites"
)

// TestParseSeriesRefusesHostileBookIDs: book_id is Site-controlled and goes
// into the chapter link's path. Whatever it holds (dot segments, slashes, a
// URL, a script), the link is either empty or a reader page under the
// Series; it never points at the Series page itself, another Series or
// another host.
func TestParseSeriesRefusesHostileBookIDs(t *testing.T) {
	t.Parallel()
	prefix := base + "/series/" + id + "/reader/"
	for _, bid := range []string{"..", ".", "../../admin", "../other-series", "https://evil.example/x", "//evil.example/x",
		"javascript:alert(1)", "a/../..", "%2e%2e", "?x=1", "#top", " "} {
		bj, _ := json.Marshal(bid)
		body := `{"title": "T", "series_books": [{"book_id": ` + string(bj) + `, "title": "Chapter 9", "sort_no": 9, "chapter_no": "9"}]}`
		f, out, err := ParseSeries([]byte(body), base, id)
		if out != sites.OK || err != nil || f.Latest == nil || f.Latest.Number != "9" {
			t.Fatalf("book_id %q: outcome %q, error %v, latest %+v", bid, out, err, f.Latest)
		}
		if u := f.Latest.URL; u != "" && (!strings.HasPrefix(u, prefix) || len(u) == len(prefix)) {
			t.Errorf("book_id %q became the link %q, not a reader page under %s", bid, u, prefix)
		}
	}
}

// TestParseSeriesRefusesDotCoverIDs: a cover image_id of "." or ".." would
// resolve to the image API's own path instead of an image; it gives no cover.
func TestParseSeriesRefusesDotCoverIDs(t *testing.T) {
	t.Parallel()
	for _, img := range []string{".", ".."} {
		body := `{"title": "T", "series_covers": [{"image_id": "` + img + `"}], "series_books": []}`
		f, _, _ := ParseSeries([]byte(body), base, id)
		if f.Title != "T" || f.CoverURL != "" {
			t.Errorf("image_id %q: title %q cover %q, want no cover", img, f.Title, f.CoverURL)
		}
	}
	f, _, _ := ParseSeries([]byte(`{"title": "T", "series_covers": [{"image_id": "c1"}], "series_books": []}`), base, id)
	if f.CoverURL != base+"/api/v2/image/c1" {
		t.Errorf("a plain image_id gives cover %q", f.CoverURL)
	}
}
