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

var fixtures = []string{"title.html", "title_odd.html", "title_no_chapters.html", "title_gone.html", "title_changed.html", "title_truncated.html", "not_found.html"}

func TestParsePageGolden(t *testing.T) {
	t.Parallel()
	for _, name := range fixtures {
		f, out, _ := ParsePage(golden.Fixture(t, name), base, id)
		golden.Check(t, name, out, f)
	}
}

// Read asks the route for the title page and classifies the answer.
func TestReadThroughFakeRoute(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "comix", Hosts: []string{"comix.to", "comix.ws"}, Browser: true, Origin: base}
	page := base + "/title/" + id
	cases := []struct {
		answer sitestest.Answer
		want   sites.Outcome
	}{
		{sitestest.Answer{Resp: sitestest.Response(page, 200, "text/html", golden.Fixture(t, "title.html"))}, sites.OK},
		{sitestest.Answer{Resp: sitestest.Response(page, 404, "text/html", golden.Fixture(t, "not_found.html"))}, sites.NotFound},
		{sitestest.Answer{Resp: sitestest.Response(page, 200, "text/html", golden.Fixture(t, "title_gone.html"))}, sites.NotFound},
		{sitestest.Answer{Resp: sitestest.Response(page, 200, "text/html", golden.Fixture(t, "title_changed.html"))}, sites.NoChapter},
		{sitestest.Answer{Resp: sitestest.Response("https://elsewhere.example/", 200, "text/html", nil)}, sites.Unfetchable},
		{sitestest.Answer{Err: sites.ErrChallenge}, sites.Refused},
		{sitestest.Answer{Err: sites.ErrUnreachable}, sites.Unreachable},
	}
	for i, c := range cases {
		f := sitestest.NewFetcher()
		f.Set(page, c.answer)
		res := Adapter{}.Read(context.Background(), site, f, id)
		if res.Outcome != c.want {
			t.Errorf("case %d: %s (%v), want %s", i, res.Outcome, res.Err, c.want)
		}
		if reqs := f.Requests(); len(reqs) != 1 || reqs[0].Page != page || reqs[0].Data != "" {
			t.Errorf("requests %+v", reqs)
		}
	}
}

func FuzzParsePage(f *testing.F) {
	for _, name := range fixtures {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fc, out, err := ParsePage(body, base, id)
		if !out.Valid() || (out == sites.OK) != (err == nil) || (out == sites.OK) != (fc.Latest != nil) {
			t.Fatalf("outcome %q, error %v, facts %+v", out, err, fc)
		}
	})
}
