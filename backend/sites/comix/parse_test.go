package comix

import (
	"context"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
	"mangabookmark/backend/sites/sitestest"
)

const (
	base = "https://comix.to"
	id   = "keqvv-whos-that-girl"
)

var (
	pages    = []string{"title_cache.html", "title_cache_gone.html", "title.html", "title_odd.html", "title_no_chapters.html", "title_gone.html", "title_changed.html", "title_truncated.html", "not_found.html"}
	chapters = []string{"chapters.json", "chapters_odd.json", "chapters_empty.json", "chapters_encrypted.json", "chapters_changed.json", "title.html"}
)

func TestParsePageGolden(t *testing.T) {
	t.Parallel()
	for _, name := range pages {
		f, out, _ := ParsePage(golden.Fixture(t, name), base)
		golden.Check(t, name, out, f)
	}
}

func TestParseChaptersGolden(t *testing.T) {
	t.Parallel()
	for _, name := range chapters {
		f, out, _ := ParseChapters(golden.Fixture(t, name), base, id)
		golden.Check(t, "chapters-"+name, out, f)
	}
}

// Read asks the route for the title page, then the chapter API from
// inside it, and classifies the answers.
func TestReadThroughFakeRoute(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "comix", Hosts: []string{"comix.to", "comix.ws"}, Browser: true, Origin: base}
	page := base + "/title/" + id
	api := base + "/api/v2/manga/keqvv/chapters?order[number]=desc&limit=100&page=1"
	html := func(status int, name string) sitestest.Answer {
		return sitestest.Answer{Resp: sitestest.Response(page, status, "text/html", golden.Fixture(t, name))}
	}
	js := func(name string) sitestest.Answer {
		return sitestest.Answer{Resp: sitestest.Response(api, 200, "application/json", golden.Fixture(t, name))}
	}
	cases := []struct {
		page, api sitestest.Answer
		want      sites.Outcome
		reqs      int
	}{
		{html(200, "title_cache.html"), js("chapters.json"), sites.OK, 2},
		{html(404, "not_found.html"), js("chapters.json"), sites.NotFound, 1},
		{html(200, "title_cache_gone.html"), js("chapters.json"), sites.NotFound, 1},
		{html(200, "title_cache.html"), js("chapters_changed.json"), sites.NoChapter, 2},
		{html(200, "title_cache.html"), js("chapters_encrypted.json"), sites.NoChapter, 2},
		{html(200, "title_changed.html"), js("chapters.json"), sites.OK, 2},
		{sitestest.Answer{Resp: sitestest.Response("https://elsewhere.example/", 200, "text/html", nil)}, js("chapters.json"), sites.Unfetchable, 1},
		{sitestest.Answer{Err: sites.ErrChallenge}, js("chapters.json"), sites.Refused, 1},
		{html(200, "title_cache.html"), sitestest.Answer{Err: sites.ErrUnreachable}, sites.Unreachable, 2},
	}
	for i, c := range cases {
		f := sitestest.NewFetcher()
		f.Set(page, c.page)
		f.Set(api, c.api)
		res := Adapter{}.Read(context.Background(), site, f, id)
		if res.Outcome != c.want {
			t.Errorf("case %d: %s (%v), want %s", i, res.Outcome, res.Err, c.want)
		}
		if reqs := f.Requests(); len(reqs) != c.reqs || reqs[0].Page != page || reqs[0].Data != "" {
			t.Errorf("case %d: requests %+v", i, reqs)
		}
	}
}

func FuzzParsePage(f *testing.F) {
	for _, name := range pages {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if _, out, err := ParsePage(body, base); !out.Valid() || (out == sites.OK) != (err == nil) {
			t.Fatalf("outcome %q, error %v", out, err)
		}
	})
}

func FuzzParseChapters(f *testing.F) {
	for _, name := range chapters {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fc, out, err := ParseChapters(body, base, id)
		if !out.Valid() || (out == sites.OK) != (err == nil) || (out == sites.OK) != (fc.Latest != nil) {
			t.Fatalf("outcome %q, error %v, facts %+v", out, err, fc)
		}
	})
}
