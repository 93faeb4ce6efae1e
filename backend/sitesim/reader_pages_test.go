package sitesim_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
)

// Every Site serves a reader page for every chapter of a Series at the
// Site's real reader URL shape, naming the Series by a link on the Site's
// own host and the chapter by its label; made-up chapters are 404.
func TestReaderPagesNameTheirSeriesAndChapter(t *testing.T) {
	t.Parallel()
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 20})
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

// A MangaDex feed row in another language opens a reader page that shows
// that row's own chapter number (a few past the English Latest Chapter),
// never the number its id's key would decode to.
func TestMangaDexTranslationRowsReadAsTheirOwnNumber(t *testing.T) {
	t.Parallel()
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 20})
	id := sim.SeriesID(sitesim.MangaDex, 2) // every seventh Series, from 2, has translations
	rows := feedRows(t, sim.Origin(sitesim.MangaDex)+"/manga/"+id+"/feed")
	latest, _ := strconv.Atoi(sim.Latest(sitesim.MangaDex, id))
	seen := 0
	for _, r := range rows {
		if r.Lang == "en" {
			continue
		}
		seen++
		n, err := strconv.Atoi(r.Number)
		if err != nil || n <= latest || n > latest+3 {
			t.Fatalf("%s row %s: number %q, want within 3 past the Latest %d", r.Lang, r.ID, r.Number, latest)
		}
		resp, err := http.Get(sim.Origin(sitesim.MangaDex) + "/chapter/" + r.ID)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "Ch. "+r.Number+"<") || strings.Contains(string(b), "522239") {
			t.Errorf("%s row %s: reader page %d does not show Ch. %s:\n%.600s", r.Lang, r.ID, resp.StatusCode, r.Number, b)
		}
	}
	if seen != 3 {
		t.Fatalf("%d rows in other languages, want 3", seen)
	}
}

// feedRow is one row of a MangaDex feed answer.
type feedRow struct{ ID, Number, Lang string }

func feedRows(t *testing.T, u string) []feedRow {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var feed struct {
		Data []struct {
			ID         string `json:"id"`
			Attributes struct {
				Chapter            *string `json:"chapter"`
				TranslatedLanguage string  `json:"translatedLanguage"`
			} `json:"attributes"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&feed); err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	var out []feedRow
	for _, d := range feed.Data {
		r := feedRow{ID: d.ID, Lang: d.Attributes.TranslatedLanguage}
		if d.Attributes.Chapter != nil {
			r.Number = *d.Attributes.Chapter
		}
		out = append(out, r)
	}
	return out
}
