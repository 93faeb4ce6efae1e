package weebcentral

import (
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
)

const base = "https://weebcentral.com"

func TestParsePageGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"series.html", "series_img_only.html", "not_found.html"} {
		f, out, _ := ParsePage(golden.Fixture(t, name), base)
		golden.Check(t, name, out, f)
	}
}

func TestParseChapterListGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"chapters.html", "chapters_odd.html", "chapters_specials_only.html", "chapters_changed.html", "not_found.html",
		"chapters_episode.html", "chapters_navigation.html", "chapters_suggestion.html", "chapters_numberless_only.html"} {
		f, out, _ := ParseChapterList(golden.Fixture(t, name), base)
		golden.Check(t, "list-"+name, out, f)
	}
}

func FuzzParseChapterList(f *testing.F) {
	for _, name := range []string{"chapters.html", "chapters_odd.html", "chapters_changed.html", "series.html"} {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		f, out, err := ParseChapterList(body, base)
		if !out.Valid() || (out == sites.OK) != (err == nil) || (out == sites.OK) != (f.Latest != nil) {
			t.Fatalf("outcome %q, error %v, chapter %+v", out, err, f.Latest)
		}
		skipped := 0
		for _, n := range f.Skipped {
			skipped += n
		}
		if skipped > f.Rows {
			t.Fatalf("%d rows, %d skipped", f.Rows, skipped)
		}
	})
}

func FuzzParsePage(f *testing.F) {
	for _, name := range []string{"series.html", "series_img_only.html", "not_found.html"} {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if _, out, err := ParsePage(body, base); !out.Valid() || (out == sites.OK) != (err == nil) {
			t.Fatalf("outcome %q, error %v", out, err)
		}
	})
}
