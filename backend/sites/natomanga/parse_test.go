package natomanga

import (
	"context"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
	"mangabookmark/backend/sites/sitestest"
)

const (
	base = "https://www.natomanga.com"
	slug = "solo-leveling"
)

func TestParsePageGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"series.html", "series_alt_layout.html", "moved.txt"} {
		f, out, _ := ParsePage(golden.Fixture(t, name), base)
		golden.Check(t, name, out, f)
	}
}

func TestParseChaptersGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"chapters.json", "chapters_odd.json", "chapters_empty.json", "chapters_changed.json", "chapters_gone.json", "chapters_truncated.json",
		"chapters_slug_disagrees.json", "chapters_slug_only.json"} {
		f, out, _ := ParseChapters(golden.Fixture(t, name), base, slug)
		golden.Check(t, name, out, f)
	}
}

// Read opens the Series page, then fetches the chapter JSON from it.
func TestReadThroughFakeRoute(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "natomanga", Hosts: []string{"natomanga.com"}, Browser: true, Origin: base}
	page, data := base+"/manga/"+slug, base+"/api/manga/"+slug+"/chapters?limit=-1"
	html := func(name string) sitestest.Answer {
		return sitestest.Answer{Resp: sitestest.Response(page, 200, "text/html; charset=UTF-8", golden.Fixture(t, name))}
	}
	js := func(status int, name string) sitestest.Answer {
		return sitestest.Answer{Resp: sitestest.Response(data, status, "application/json", golden.Fixture(t, name))}
	}
	cases := []struct {
		page, data sitestest.Answer
		want       sites.Outcome
	}{
		{html("series.html"), js(200, "chapters.json"), sites.OK},
		{html("moved.txt"), js(200, "chapters.json"), sites.NotFound},
		{html("series.html"), js(404, "chapters_gone.json"), sites.NotFound},
		{html("series.html"), js(200, "chapters_gone.json"), sites.NotFound},
		{html("series.html"), js(200, "chapters_changed.json"), sites.NoChapter},
		{html("series.html"), js(200, "chapters_truncated.json"), sites.Unfetchable},
		{html("series.html"), sitestest.Answer{Err: sites.ErrUnreachable}, sites.Unreachable},
		{sitestest.Answer{Err: sites.ErrChallenge}, js(200, "chapters.json"), sites.Refused},
	}
	for i, c := range cases {
		f := sitestest.NewFetcher()
		f.Set(page, c.page)
		f.Set(data, c.data)
		res := Adapter{}.Read(context.Background(), site, f, slug)
		if res.Outcome != c.want {
			t.Errorf("case %d: %s (%v), want %s", i, res.Outcome, res.Err, c.want)
		}
		if c.want == sites.OK && (res.Facts.Title != "Solo Leveling" || res.Facts.Latest.Number != "200") {
			t.Errorf("case %d: facts %+v", i, res.Facts)
		}
	}
}

func FuzzParseChapters(f *testing.F) {
	for _, name := range []string{"chapters.json", "chapters_odd.json", "chapters_changed.json", "chapters_gone.json", "chapters_truncated.json"} {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		f, out, err := ParseChapters(body, base, slug)
		if !out.Valid() || (out == sites.OK) != (err == nil) || (out == sites.OK) != (f.Latest != nil) {
			t.Fatalf("outcome %q, error %v, chapter %+v", out, err, f.Latest)
		}
	})
}

func FuzzParsePage(f *testing.F) {
	for _, name := range []string{"series.html", "series_alt_layout.html", "moved.txt"} {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if _, out, err := ParsePage(body, base); !out.Valid() || (out == sites.OK) != (err == nil) {
			t.Fatalf("outcome %q, error %v", out, err)
		}
	})
}

func TestNumberFromSlug(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"chapter-12-5": "12.5", "chapter-12": "12", "chapter-007": "7", "chapter-0": "0"} {
		if got, ok := NumberFromSlug(in); !ok || got != want {
			t.Errorf("NumberFromSlug(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"s2-chapter-3", "special-2", "chapter-12-5-extra", "chapter-", "chapter-x", "chapter-12-", ""} {
		if got, ok := NumberFromSlug(in); ok {
			t.Errorf("NumberFromSlug(%q) = %q, want none", in, got)
		}
	}
}
