package userscript_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// mangadexRows are a simulated MangaDex Series' feed rows: id, chapter
// number and language.
func mangadexRows(t *testing.T, sim *sitesim.Sim, id string) [][3]string {
	t.Helper()
	resp, err := http.Get(sim.Origin(sitesim.MangaDex) + "/manga/" + id + "/feed")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var feed struct {
		Data []struct {
			ID         string `json:"id"`
			Attributes struct {
				Chapter *string `json:"chapter"`
				Lang    string  `json:"translatedLanguage"`
			} `json:"attributes"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&feed); err != nil {
		t.Fatal(err)
	}
	var out [][3]string
	for _, d := range feed.Data {
		if d.Attributes.Chapter != nil {
			out = append(out, [3]string{d.ID, *d.Attributes.Chapter, d.Attributes.Lang})
		}
	}
	return out
}

// A MangaDex feed row in another language (numbered a few past the
// English Latest Chapter) opens the simulator's reader page; the served
// userscript reads it as that row's own chapter, not as the number the
// row's id would decode to ("Ch. 522239"), and Progress stays within reach
// of the Latest Chapter.
func TestUserscriptReadsAMangaDexTranslationAsItsOwnChapter(t *testing.T) {
	t.Parallel()
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 20})
	e, hs := newRealSitesEnv(t)
	id := sim.SeriesID(sitesim.MangaDex, 2) // its feed carries rows in other languages
	var row [3]string
	for _, r := range mangadexRows(t, sim, id) {
		if r[2] == "fr" {
			row = r
		}
	}
	if row[0] == "" {
		t.Fatalf("no French row in %s's feed", id)
	}
	page := sharedPage(t)
	routePages(t, page, nil, map[string]string{"mangadex.org": sim.Origin(sitesim.MangaDex)})
	installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	keepReading(t, page)
	nav(t, page, "https://mangadex.org/chapter/"+row[0])
	if got := progressWithin(e.st, e.reader.ID, sitesim.MangaDex, id, row[1], 30*time.Second); got != row[1] {
		t.Fatalf("the French row's chapter read as %q, want %s (the row's own number)", got, row[1])
	}
	latest, _ := strconv.Atoi(sim.Latest(sitesim.MangaDex, id))
	if n, _ := strconv.Atoi(row[1]); n > latest+10 {
		t.Fatalf("the row's number %d is far past the Latest %d", n, latest)
	}
}

// A read far past the Latest Chapter (a page script's pushState to
// chapter 999999, the Reader scrolling) is refused by the backend
// (past_latest): Progress stays where it was, and the panel says the read
// was refused instead of ✓.
func TestAReadFarPastTheLatestChapterIsRefused(t *testing.T) {
	t.Parallel()
	e, hs := newRealSitesEnv(t)
	ctx := context.Background()
	if _, err := e.st.AddBookmark(ctx, e.reader.ID, "mangapill", "2", "https://mangapill.com/manga/2"); err != nil {
		t.Fatal(err)
	}
	storetest.SetSeries(ctx, t, e.st, storetest.SeriesSet{Site: "mangapill", IDs: []string{"2"}, LatestNumber: "1184"})
	if _, err := e.st.ApplyReads(ctx, []store.Read{{ReaderID: e.reader.ID, Site: "mangapill", SeriesID: "2",
		SeriesURL: "https://mangapill.com/manga/2", Number: "1183", URL: "https://mangapill.com/chapters/2-11183000/x", ReadAt: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	const chapter = "https://mangapill.com/chapters/2-11184000/one-piece-chapter-1184"
	page := sharedPage(t)
	routePages(t, page, map[string]string{chapter: fixture(t, "mangapill-reader.html")}, nil)
	g := installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	keepReading(t, page)
	nav(t, page, chapter)
	waitProgress(t, e.st, e.reader.ID, "mangapill", "2", "1184", 30*time.Second)
	// The page's script moves the URL far past the Latest Chapter.
	if _, err := page.Eval(`() => history.pushState({}, '', '/chapters/2-1999999000/one-piece-chapter-999999')`); err != nil {
		t.Fatal(err)
	}
	waitPanel(t, page, "mb-status", "the panel says the far read was refused", func(text, title string, _ bool) bool {
		return text == "⚠ not read" && strings.Contains(title, "past_latest")
	})
	if len(readsFor(g, "1999999000")) == 0 {
		t.Fatal("the far read was never sent: the test did not reach the backend's rule")
	}
	if p, err := e.st.GetProgress(ctx, e.reader.ID, "mangapill", "2"); err != nil || p.Number != "1184" {
		t.Errorf("Progress after the far read: %+v (%v), want 1184", p, err)
	}
	t.Logf("hostile inputs tried: %d", 1)
}
