package userscript_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/store/storetest"
)

// sitePage is a chapter page of a real Site, served by request
// interception so the userscript runs on the Site's real host.
type sitePage struct {
	url, html      string
	site, seriesID string // "" when the page must record nothing
	number         string
}

var sitePages = []sitePage{
	{"https://kagane.to/series/019C29BC-0812-7957-8D3F-0A1B2C3D4E5F/reader/0198aa00-0000-7000-8000-000000000001",
		`<title>Chapter 12 | Kagane</title><h1>Some Series</h1>`, "kagane", "019c29bc-0812-7957-8d3f-0a1b2c3d4e5f", "12"},
	{"https://comix.to/title/keqvv-whos-that-girl/5512-chapter-33",
		`<title>Who's That Girl</title>`, "comix", "keqvv-whos-that-girl", "33"},
	{"https://www.comix.ws/title/zz9ab-second-title/77-chapter-4-5",
		`<title>Second</title>`, "comix", "zz9ab-second-title", "4.5"},
	{"https://www.natomanga.com/manga/solo-leveling/chapter-12-5",
		`<title>Solo Leveling</title>`, "natomanga", "solo-leveling", "12.5"},
	{"https://mangakakalot.gg/manga/other-slug/chapter-7",
		`<title>Other</title>`, "natomanga", "other-slug", "7"},
	{"https://mangadex.org/chapter/0c7c8f1e-4e59-43b7-9365-09675a149a6f",
		`<title>Ch. 1184 - One Piece - MangaDex</title><a href="/title/a1c7c817-4e59-43b7-9365-09675a149a6f/one-piece">One Piece</a>`,
		"mangadex", "a1c7c817-4e59-43b7-9365-09675a149a6f", "1184"},
	{"https://weebcentral.com/chapters/01J76XY7E9FNDZ1DBBM6PBJPAA",
		`<title>WeebCentral</title><a href="https://weebcentral.com/series/01J76XY7E9FNDZ1DBBM6PBJPFK/One-Piece">One Piece</a><h1>Chapter 105.5</h1>`,
		"weebcentral", "01J76XY7E9FNDZ1DBBM6PBJPFK", "105.5"},
	{"https://mangapill.com/chapters/2-11183500/one-piece-chapter-1183-5",
		`<title>One Piece Chapter 1183.5</title>`, "mangapill", "2", "1183.5"},
	// Series pages are not chapter pages: nothing is recorded.
	{"https://mangapill.com/manga/3/other", `<title>Other Chapter 9</title>`, "", "", ""},
	{"https://mangadex.org/title/b1c7c817-4e59-43b7-9365-09675a149a6f", `<title>Ch. 3</title>`, "", "", ""},
	{"https://mangapill.com/manga/2/one-piece", `<title>One Piece</title>`, "", "", ""},
}

// Each Site's chapter URL shape, on the Site's real host, is recognised by
// the userscript and accepted by the backend (same URL rules), and the
// ember shows on a Series whose Latest Chapter is past the Progress.
func TestUserscriptRecognisesEverySite(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	e, handler := newEnv(t, reg)
	st, ctx, reader := e.st, context.Background(), e.reader
	hs := httptest.NewServer(nil)
	t.Cleanup(hs.Close)
	hs.Config.Handler = handler(hs.URL)
	// mangapill/2 is bookmarked with a Latest Chapter past what is read.
	if _, err := st.AddBookmark(ctx, reader.ID, "mangapill", "2", "https://mangapill.com/manga/2"); err != nil {
		t.Fatal(err)
	}
	storetest.SetSeries(ctx, t, st, storetest.SeriesSet{IDs: []string{"2"}, LatestNumber: "1184"})

	page := sharedPage(t)
	byURL := map[string]string{}
	for _, p := range sitePages {
		byURL[p.url] = "<!doctype html><html><head>" + p.html + "</head><body><p>page</p></body></html>"
	}
	routePages(t, page, byURL, nil)
	installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	keepReading(t, page)

	for _, p := range sitePages {
		nav(t, page, p.url)
		if p.site == "" {
			continue
		}
		deadline := time.Now().Add(20 * time.Second)
		got := ""
		for time.Now().Before(deadline) {
			if pr, err := st.GetProgress(ctx, reader.ID, p.site, p.seriesID); err == nil {
				got = pr.Number
				if got == p.number {
					break
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
		if got != p.number {
			t.Errorf("%s: progress %s/%s = %q, want %q", p.url, p.site, p.seriesID, got, p.number)
		}
	}
	// The last chapter page read mangapill/2 (1183.5 < Latest 1184): after
	// the sync the bookmarks cache says New, and the ember shows. Go back
	// to that page to look at its panel.
	nav(t, page, "https://mangapill.com/chapters/2-11183500/one-piece-chapter-1183-5")
	waitPanel(t, page, "mb-ember", "the ember on a Series whose Latest Chapter is past the Progress", isShown)
	// The Series page shows the ember too, and has no bookmark button
	// (it is bookmarked already).
	nav(t, page, "https://mangapill.com/manga/2/one-piece")
	waitPanel(t, page, "mb-ember", "ember on the Series page", isShown)
	waitPanel(t, page, "mb-bookmark", "no bookmark button on a bookmarked Series", isHidden)
	// A Series page not bookmarked: the button bookmarks it by its URL.
	nav(t, page, "https://mangapill.com/manga/3/other")
	waitPanel(t, page, "mb-bookmark", "bookmark button", isShown)
	clickPanel(t, page, "mb-bookmark") // the Reader's own click
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := st.GetBookmark(ctx, reader.ID, "mangapill", "3"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the bookmark button did not bookmark mangapill/3")
		}
		time.Sleep(100 * time.Millisecond)
	}
	waitPanel(t, page, "mb-bookmark", "button hidden once bookmarked", isHidden)
	var rows int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM progress`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, p := range sitePages {
		if p.site != "" {
			want++
		}
	}
	if rows != want {
		t.Errorf("progress rows = %d, want %d (series pages record nothing)", rows, want)
	}
}
