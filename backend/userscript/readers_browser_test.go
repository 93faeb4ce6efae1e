package userscript_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readerPage is a Site's real reader page (a fixture in testdata, see its
// README) at its real URL, and the read the userscript must record there.
type readerPage struct {
	fixture, url   string
	site, seriesID string
	number         string
}

var readerPages = []readerPage{
	// A single-page app that shows its Series link and "Ch. 6" only after 8 s.
	{"mangadex-reader.html", "https://mangadex.org/chapter/f946ac53-0b71-4b5d-aeb2-7931b13c4aaa",
		"mangadex", "487f1f04-75f3-4a2e-a4af-76e615e32585", "6"},
	// Labelled "Navigation 67.5": the number comes from the page's data.
	{"weebcentral-reader.html", "https://weebcentral.com/chapters/01J76XZ4PC3VW91BYFBQJA44C3",
		"weebcentral", "01J76XY8G1GK8EJ9VQG92C3DKM", "67.5"},
	// Labelled "Episode 139.5" with nothing else to go by.
	{"weebcentral-reader-episode.html", "https://weebcentral.com/chapters/01J76XZT4K0W8D2WVB3M1YJ6RA",
		"weebcentral", "01J76XYCERXE60T7FKXVCCAQ0H", "139.5"},
	{"mangapill-reader.html", "https://mangapill.com/chapters/2-11184000/one-piece-chapter-1184",
		"mangapill", "2", "1184"},
	{"natomanga-reader.html", "https://www.natomanga.com/manga/danzai-sareta-akuyaku-reijou-wa-gyakkou-shite-kanpeki-na-akujo-wo-mezasu/chapter-4-5",
		"natomanga", "danzai-sareta-akuyaku-reijou-wa-gyakkou-shite-kanpeki-na-akujo-wo-mezasu", "4.5"},
	{"comix-reader.html", "https://comix.to/title/keqvv-whos-that-girl/5512-chapter-33",
		"comix", "keqvv-whos-that-girl", "33"},
	{"kagane-reader.html", "https://kagane.org/series/019c29bc-0812-7957-8d3f-0a1b2c3d4e5f/reader/019c29bd-1c2d-7e3f-8a4b-5c6d7e8f9a0b",
		"kagane", "019c29bc-0812-7957-8d3f-0a1b2c3d4e5f", "12"},
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Each Site's real reader page, loaded at its real URL, is read: the
// userscript records (site, series_id, number), however late the page
// renders it and whatever word labels the chapter.
func TestUserscriptReadsRealReaderPages(t *testing.T) {
	t.Parallel()
	e, hs := newRealSitesEnv(t)

	page := sharedPage(t)
	pages := map[string]string{}
	for _, p := range readerPages {
		pages[p.url] = fixture(t, p.fixture)
	}
	// Kagane's own series API, on the Site's origin, names the book's number.
	pages["https://kagane.org/api/v2/series/019c29bc-0812-7957-8d3f-0a1b2c3d4e5f"] = fixture(t, "kagane-series-api.json")
	routePages(t, page, pages, nil)
	installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	keepReading(t, page)
	for _, p := range readerPages {
		nav(t, page, p.url)
		if got := progressWithin(e.st, e.reader.ID, p.site, p.seriesID, p.number, 25*time.Second); got != p.number {
			t.Errorf("%s (%s): progress %s/%s = %q, want %q", p.fixture, p.url, p.site, p.seriesID, got, p.number)
			continue
		}
		waitStatus(t, page, "✓", 10*time.Second)
	}
	var rows int
	if err := e.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM progress`).Scan(&rows); err != nil || rows != len(readerPages) {
		t.Errorf("progress rows %d (%v), want %d", rows, err, len(readerPages))
	}
}

// A chapter page the userscript cannot read (a MangaDex oneshot has no
// chapter number) never shows ✓: the panel says it is still looking, then,
// after 30 s, that the page was not read and why. A chapter-list fragment
// of a Series is not a Series page: no "+ bookmark" there.
func TestUserscriptSaysWhenAChapterPageIsNotRead(t *testing.T) {
	t.Parallel()
	e, hs := newRealSitesEnv(t)

	const oneshot = "https://mangadex.org/chapter/61a88817-9c29-4281-bdf1-77b3c1be9831"
	const fragment = "https://weebcentral.com/series/01J76XY8G1GK8EJ9VQG92C3DKM/full-chapter-list"
	const seriesPage = "https://weebcentral.com/series/01J76XY8G1GK8EJ9VQG92C3DKM/Aria"
	page := sharedPage(t)
	routePages(t, page, map[string]string{
		oneshot:    fixture(t, "mangadex-reader-oneshot.html"),
		fragment:   fixture(t, "weebcentral-full-chapter-list.html"),
		seriesPage: "<!DOCTYPE html><title>Aria | Weeb Central</title><main><h1>Aria</h1></main>",
	}, nil)
	installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	keepReading(t, page)

	// The full-chapter-list fragment first: no bookmark button; the Series
	// page itself has one.
	nav(t, page, fragment)
	waitStatus(t, page, "✓", 20*time.Second)
	time.Sleep(time.Second)
	if _, _, shown, ok := panelState(page, "mb-bookmark"); !ok || shown {
		t.Error(`"+ bookmark" shown on /series/{id}/full-chapter-list`)
	}
	nav(t, page, seriesPage)
	waitPanel(t, page, "mb-bookmark", "bookmark button on the Series page", isShown)

	start := time.Now()
	nav(t, page, oneshot)
	waitStatus(t, page, "⋯ reading", 10*time.Second)
	seen := map[string]bool{}
	var tip string
	for time.Since(start) < 45*time.Second {
		var text string
		text, tip = panelStatus(page)
		seen[text] = true
		if text == "⚠ not read" {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !seen["⚠ not read"] {
		t.Fatalf("the panel never said the page was not read; it showed %v", seen)
	}
	if seen["✓"] {
		t.Error("the panel showed ✓ on a chapter page it could not read")
	}
	if !strings.Contains(tip, "no chapter number") {
		t.Errorf("tooltip %q does not give the reason", tip)
	}
	var rows int
	if err := e.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM progress`).Scan(&rows); err != nil || rows != 0 {
		t.Errorf("progress rows %d (%v), want 0", rows, err)
	}
}

// A single-page app moves to the next chapter with pushState and shows the
// new chapter's header only a moment later: the read of the next chapter
// is recorded, not just the stale header seen at the URL change.
func TestUserscriptFollowsAnSPAToTheNextChapter(t *testing.T) {
	t.Parallel()
	e, hs := newRealSitesEnv(t)

	const first = "https://mangadex.org/chapter/f946ac53-0b71-4b5d-aeb2-7931b13c4aaa"
	page := sharedPage(t)
	routePages(t, page, map[string]string{first: strings.ReplaceAll(fixture(t, "mangadex-reader.html"), "RENDER_MS", "300")}, nil)
	installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	keepReading(t, page)
	nav(t, page, first)
	const series = "487f1f04-75f3-4a2e-a4af-76e615e32585"
	waitProgress(t, e.st, e.reader.ID, "mangadex", series, "6", 20*time.Second)
	// The app's own navigation: the URL first, the header 1.5 s later.
	if _, err := page.Eval(`() => {
		history.pushState({}, '', '/chapter/0c7c8f1e-4e59-43b7-9365-09675a149a6f');
		setTimeout(() => {
			document.querySelector('.reader--meta.chapter').textContent = 'Ch. 7';
			document.querySelector('.reader--header-title').textContent = 'The 7th Log';
		}, 1500);
	}`); err != nil {
		t.Fatal(err)
	}
	waitProgress(t, e.st, e.reader.ID, "mangadex", series, "7", 20*time.Second)
}

// A chapter page that was read and then hides its header (the reader's
// menu folds away) never shows "⋯ reading" or "⚠ not read".
func TestUserscriptKeepsAReadPageRead(t *testing.T) {
	t.Parallel()
	e, hs := newRealSitesEnv(t)

	const u = "https://mangadex.org/chapter/f946ac53-0b71-4b5d-aeb2-7931b13c4aaa"
	page := sharedPage(t)
	routePages(t, page, map[string]string{u: strings.ReplaceAll(fixture(t, "mangadex-reader.html"), "RENDER_MS", "300")}, nil)
	installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	keepReading(t, page)
	nav(t, page, u)
	waitProgress(t, e.st, e.reader.ID, "mangadex", "487f1f04-75f3-4a2e-a4af-76e615e32585", "6", 20*time.Second)
	if _, err := page.Eval(`() => document.querySelector('.reader--header').remove()`); err != nil {
		t.Fatal(err)
	}
	for start := time.Now(); time.Since(start) < 35*time.Second; time.Sleep(250 * time.Millisecond) {
		if text, _ := panelStatus(page); text == "⋯ reading" || text == "⚠ not read" {
			t.Fatalf("a read page shows %q once its header is gone", text)
		}
	}
}
