package comix

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
	"mangabookmark/backend/sites/sitestest"
)

const (
	base = "https://comix.to"
	id   = "keqvv-whos-that-girl"
)

// readAt is the clock every parse in these tests reads relative times
// against.
var readAt = time.Date(2026, 12, 1, 10, 30, 0, 0, time.UTC)

var pages = []string{"title_latest.html", "title_latest_decimal.html", "title_latest_none.html", "title_latest_offsite.html",
	"title_waf.html", "title_cache.html", "title_cache_gone.html", "title.html", "title_odd.html", "title_no_chapters.html",
	"title_gone.html", "title_changed.html", "title_truncated.html", "not_found.html",
	"title_links.html", "title_links_all.html", "title_links_hostile.html"}

func TestParsePageGolden(t *testing.T) {
	t.Parallel()
	for _, name := range pages {
		f, out, _ := ParsePage(golden.Fixture(t, name), base, readAt)
		golden.Check(t, name, out, f)
	}
}

// The Latest Chapter comes from the title page's own aggregate: number,
// link on the Site's origin, and the relative time read against the clock.
func TestParsePageLatestFromInitialData(t *testing.T) {
	t.Parallel()
	f, out, err := ParsePage(golden.Fixture(t, "title_latest.html"), base, readAt)
	if out != sites.OK || err != nil || f.Latest == nil {
		t.Fatalf("outcome %s (%v), facts %+v", out, err, f)
	}
	l := f.Latest
	if l.Number != "41" || l.URL != base+"/title/"+id+"/5521804-chapter-41" || l.Title != "Chapter 41" ||
		!l.ReleasedAt.Equal(time.Date(2026, 12, 1, 1, 0, 0, 0, time.UTC)) {
		t.Errorf("latest %+v", l)
	}
	if f.Title != "Who's That Girl" || f.CoverURL != "https://static.comix.to/ab12/i/3/9c/keqvv.jpg" {
		t.Errorf("title %q cover %q", f.Title, f.CoverURL)
	}
	// The link is built on the origin the Site is read from (a mirror).
	f, _, _ = ParsePage(golden.Fixture(t, "title_latest_decimal.html"), "https://comix.ws", readAt)
	if l := f.Latest; l == nil || l.Number != "12.5" || l.URL != "https://comix.ws/title/"+id+"/5521900-chapter-12.5" ||
		!l.ReleasedAt.Equal(time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("decimal latest %+v", l)
	}
	// hasChapters false is no Latest Chapter, not a Series gone.
	if _, out, err := ParsePage(golden.Fixture(t, "title_latest_none.html"), base, readAt); out != sites.NoChapter || err == nil {
		t.Errorf("no chapters: %s (%v)", out, err)
	}
}

func TestAgo(t *testing.T) {
	t.Parallel()
	h := func(d, hh int) time.Time { return time.Date(2026, 12, d, hh, 0, 0, 0, time.UTC) }
	for in, want := range map[string]time.Time{
		"9h ago": h(1, 1), "2m ago": h(1, 10), "just now": h(1, 10), "45 minutes ago": h(1, 9),
		"1 hour ago": h(1, 9), "3d ago": h(28, 0).AddDate(0, -1, 0), "1w ago": h(24, 0).AddDate(0, -1, 0),
		"1mo ago": h(1, 0).AddDate(0, -1, 0), "2y ago": h(1, 0).AddDate(-2, 0, 0), "30s ago": h(1, 10),
		"": {}, "yesterday": {}, "9h": {}, "-3h ago": {}, "99999h ago": {}, "9 parsecs ago": {},
	} {
		if got := ago(in, readAt); !got.Equal(want) {
			t.Errorf("ago(%q) = %v, want %v", in, got, want)
		}
	}
	// An hour later the same chapter reads as the same instant.
	if a, b := ago("9h ago", readAt), ago("10h ago", readAt.Add(time.Hour)); !a.Equal(b) {
		t.Errorf("drifts: %v then %v", a, b)
	}
}

// Read asks the route for the title page only and classifies the answer.
func TestReadThroughFakeRoute(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "comix", Hosts: []string{"comix.to", "comix.ws"}, Browser: true, Origin: base}
	page := base + "/title/" + id
	html := func(status int, name string) sitestest.Answer {
		return sitestest.Answer{Resp: sitestest.Response(page, status, "text/html", golden.Fixture(t, name))}
	}
	cases := []struct {
		page sitestest.Answer
		want sites.Outcome
	}{
		{html(200, "title_latest.html"), sites.OK},
		{html(404, "not_found.html"), sites.NotFound},
		{html(200, "title_cache_gone.html"), sites.NotFound},
		{html(200, "title_latest_none.html"), sites.NoChapter},
		{html(200, "title_cache.html"), sites.NoChapter},
		{html(200, "title_changed.html"), sites.NoChapter},
		{sitestest.Answer{Resp: sitestest.Response("https://elsewhere.example/", 200, "text/html", nil)}, sites.Unfetchable},
		{sitestest.Answer{Err: sites.ErrChallenge}, sites.Refused},
		{sitestest.Answer{Err: sites.ErrUnreachable}, sites.Unreachable},
	}
	for i, c := range cases {
		f := sitestest.NewFetcher()
		f.Set(page, c.page)
		res := Adapter{Now: func() time.Time { return readAt }}.Read(context.Background(), site, f, id)
		if res.Outcome != c.want {
			t.Errorf("case %d: %s (%v), want %s", i, res.Outcome, res.Err, c.want)
		}
		if reqs := f.Requests(); len(reqs) != 1 || reqs[0].Page != page || reqs[0].Data != "" {
			t.Errorf("case %d: requests %+v", i, reqs)
		}
	}
}

func FuzzParsePage(f *testing.F) {
	for _, name := range pages {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fc, out, err := ParsePage(body, base, readAt)
		if !out.Valid() || (out == sites.OK) != (err == nil) || (out == sites.OK) != (fc.Latest != nil) {
			t.Fatalf("outcome %q, error %v, facts %+v", out, err, fc)
		}
		golden.CheckIDs(t, fc)
	})
}
