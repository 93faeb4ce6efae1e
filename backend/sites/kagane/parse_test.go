package kagane

import (
	"context"
	"net/http"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
	"mangabookmark/backend/sites/sitestest"
)

const (
	base = "https://kagane.to"
	id   = "019c29bc-0812-7957-a1b2-1234567890ab"
)

func TestParseSeriesGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"series.json", "series_numeric_chapter_no.json", "series_empty.json", "series_changed.json", "not_found.json", "not_json.html",
		"series_no_books.json"} {
		f, out, _ := ParseSeries(golden.Fixture(t, name), base, id)
		golden.Check(t, name, out, f)
	}
}

// Read asks the route to open the Series page and fetch the API from it,
// and classifies what the route returns.
func TestReadThroughFakeRoute(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "kagane", Hosts: []string{"kagane.to", "kagane.org"}, Browser: true, Origin: base}
	data := base + "/api/v2/series/" + id
	cases := []struct {
		answer sitestest.Answer
		want   sites.Outcome
	}{
		{sitestest.Answer{Resp: sitestest.Response(data, 200, "application/json", golden.Fixture(t, "series.json"))}, sites.OK},
		{sitestest.Answer{Resp: sitestest.Response(data, 404, "application/json", golden.Fixture(t, "not_found.json"))}, sites.NotFound},
		{sitestest.Answer{Resp: sitestest.Response(data, 200, "application/json", golden.Fixture(t, "series_changed.json"))}, sites.NoChapter},
		{sitestest.Answer{Resp: sitestest.Response(data, 200, "text/html", golden.Fixture(t, "not_json.html"))}, sites.Unfetchable},
		{sitestest.Answer{Err: sites.ErrChallenge}, sites.Refused},
		{sitestest.Answer{Err: sites.ErrUnreachable}, sites.Unreachable},
		{sitestest.Answer{Resp: sitestest.Response(data, 502, "text/html", nil)}, sites.Errors},
	}
	for _, c := range cases {
		f := sitestest.NewFetcher()
		f.Set(data, c.answer)
		res := Adapter{}.Read(context.Background(), site, f, id)
		if res.Outcome != c.want {
			t.Errorf("answer %+v: %s (%v), want %s", c.answer.Err, res.Outcome, res.Err, c.want)
		}
		reqs := f.Requests()
		if len(reqs) != 1 || reqs[0].Page != base+"/series/"+id || reqs[0].Data != data ||
			http.Header(reqs[0].Header).Get("Referer") != base+"/" {
			t.Errorf("requests %+v", reqs)
		}
		if c.want == sites.OK && res.Facts.Latest.Number != "250.5" {
			t.Errorf("latest %+v", res.Facts.Latest)
		}
	}
}

func FuzzParseSeries(f *testing.F) {
	for _, name := range []string{"series.json", "series_numeric_chapter_no.json", "series_changed.json", "not_found.json"} {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fc, out, err := ParseSeries(body, base, id)
		if !out.Valid() || (out == sites.OK) != (err == nil) || (out == sites.OK) != (fc.Latest != nil) {
			t.Fatalf("outcome %q, error %v, facts %+v", out, err, fc)
		}
	})
}
