package mangapill

import (
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
)

const base = "https://mangapill.com"

func TestParsePageGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"series.html", "series_odd.html", "series_specials_only.html", "series_no_chapters.html", "series_changed.html", "not_found.html",
		"series_header_h1.html"} {
		f, out, _ := ParsePage(golden.Fixture(t, name), base)
		golden.Check(t, name, out, f)
	}
}

func FuzzParsePage(f *testing.F) {
	for _, name := range []string{"series.html", "series_odd.html", "series_changed.html", "not_found.html"} {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fc, out, err := ParsePage(body, base)
		if !out.Valid() || (out == sites.OK) != (err == nil) || (out == sites.OK) != (fc.Latest != nil) {
			t.Fatalf("outcome %q, error %v, facts %+v", out, err, fc)
		}
	})
}
