package sitesim_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"mangabookmark/backend/sitesim"
)

// Every Site serves a reader page for every chapter of a Series at the
// Site's real reader URL shape, naming the Series by a link on the Site's
// own host and the chapter by its label; made-up chapters are 404.
func TestReaderPagesNameTheirSeriesAndChapter(t *testing.T) {
	t.Parallel()
	sim, err := sitesim.New(sitesim.Config{SeriesPerSite: 20})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Close)
	get := func(u string) (int, string) {
		t.Helper()
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, site := range sitesim.SiteNames {
		for _, i := range []int{0, 1, 5} {
			id := sim.SeriesID(site, i)
			n := sim.Latest(site, id)
			u := sim.ReaderURL(site, id, n)
			if u == "" {
				t.Fatalf("%s/%s: no reader URL for %s", site, id, n)
			}
			code, body := get(u)
			if code != http.StatusOK {
				t.Fatalf("%s: %d", u, code)
			}
			link := `href="/`
			if !strings.Contains(body, link) || strings.Contains(body, "127.0.0.1") {
				t.Errorf("%s: links are not relative to the Site's host", u)
			}
			if !strings.Contains(body, id) && !strings.Contains(strings.ToLower(body), strings.ToLower(id)) {
				t.Errorf("%s: the page does not name its Series %s", u, id)
			}
			if !strings.Contains(body, " "+n) {
				t.Errorf("%s: the page does not show chapter %s", u, n)
			}
		}
		// A chapter the Series does not have, on a Series the Site does not.
		if u := sim.ReaderURL(site, "nope", "1"); u != "" {
			t.Errorf("%s: reader URL for an unknown Series: %s", site, u)
		}
	}
	for _, u := range []string{
		sim.Origin(sitesim.MangaDex) + "/chapter/00000000-0000-4000-8000-000000000000",
		sim.Origin(sitesim.WeebCentral) + "/chapters/01J0000000000000000000000Z",
		sim.Origin(sitesim.MangaPill) + "/chapters/1-1000500/x",
		sim.Origin(sitesim.Natomanga) + "/manga/no-such-series-zzzzz/chapter-3",
	} {
		if code, _ := get(u); code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", u, code)
		}
	}
}
