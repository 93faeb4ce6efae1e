package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// coverPNG draws a small two-colour cover, so screenshots show real images
// served through /covers/.
func coverPNG(hue int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 90))
	top := color.RGBA{uint8(60 + hue*37%160), uint8(70 + hue*53%140), uint8(90 + hue*29%150), 255}
	for y := 0; y < 90; y++ {
		for x := 0; x < 64; x++ {
			c := top
			if y > 60 {
				c = color.RGBA{top.R / 2, top.G / 2, top.B / 2, 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

// seedShowcase gives the Owner (Reader 1) a library that shows every state
// the page draws: New Chapters, read, checking, failing, with covers, a
// Work of three members (two bookmarked, one failing) on one card, and
// the time line (checked, expected, late on hiatus or failing). It
// returns the Work's id.
func seedShowcase(t *testing.T, st *store.Store) int64 {
	t.Helper()
	ctx := context.Background()
	now := admintest.Now
	titles := []string{"The Lighthouse Keeper's Apprentice", "Iron Orchard", "A Quiet Place Between Stars", "Moonlit Bakery",
		"Salt and Cinders", "The Seventh Cartographer", "Paper Lanterns", "Glass Harbor"}
	for i, title := range titles {
		id := fmt.Sprintf("sc%d", i)
		site := admintest.SiteNames[i%len(admintest.SiteNames)]
		seen := now.Add(-time.Duration(i*i+1) * 3 * time.Hour)
		o := storetest.SeriesOpts{Site: site, ID: id, Title: title, LatestNumber: strconv.Itoa(20 + i*7),
			LatestTitle: []string{"Homecoming", "", "The Long Night", "", "", "Ink", "", ""}[i],
			LatestURL:   "https://" + site + ".test/chapter/" + id, SeenAt: &seen, CheckedAt: storetest.At(now.Add(-time.Duration(4+i*9) * time.Minute))}
		if i == 6 { // not read by its Lane yet: no Latest Chapter either
			o.LatestNumber, o.SeenAt, o.CheckedAt = "", nil, nil
		}
		storetest.Series(ctx, t, st, o)
		if _, err := st.AddBookmark(ctx, 1, site, id, "https://"+site+".test/series/"+id); err != nil {
			t.Fatal(err)
		}
		if i != 6 && i != 7 {
			behind := []int{1, 0, 2, 0, 0, 1, 0, 0}[i]
			storetest.Progress(ctx, t, st, storetest.ProgressOpts{ReaderID: 1, Site: site, SeriesID: id,
				Number: strconv.Itoa(20 + i*7 - behind), ReadAt: storetest.At(now.Add(-time.Hour))})
		}
		if i != 3 {
			if err := st.PutCover(ctx, site, id, store.Cover{SourceURL: "https://x.test/c.png", ContentType: "image/png", Body: coverPNG(i), FetchedAt: now}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := st.UpsertFailure(ctx, admintest.SiteNames[4], "sc4", "not_found", now.Add(-52*time.Hour)); err != nil {
		t.Fatal(err)
	}
	// The time line: weekly chapters up to the Latest (sc1 every two
	// weeks); sc3 on hiatus and sc4 failing, both silent for weeks.
	var evs []storetest.ChapterEventOpts
	for i := range 6 {
		site, id, latest := admintest.SiteNames[i%len(admintest.SiteNames)], fmt.Sprintf("sc%d", i), 20+i*7
		last, every := now.Add(-time.Duration(i*i+1)*3*time.Hour), 7*24*time.Hour
		switch i {
		case 1:
			every *= 2
		case 3, 4:
			last = last.Add(-20 * 24 * time.Hour)
		}
		for k := range 4 {
			evs = append(evs, storetest.ChapterEventOpts{Site: site, SeriesID: id, Number: strconv.Itoa(latest - k),
				URL: fmt.Sprintf("https://%s.test/chapter/%s-%d", site, id, latest-k), SeenAt: storetest.At(last.Add(-time.Duration(k) * every))})
		}
		status := "releasing"
		if i == 3 {
			status = "hiatus"
		}
		if err := st.RecordStatus(ctx, site, id, status, "", now.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	storetest.ChapterEvents(ctx, t, st, evs...)
	// "The Lighthouse Keeper's Apprentice" (sc0, Latest 20, read to 19) is
	// on mangadex too, a chapter ahead and bookmarked, and on weebcentral,
	// failing: one story, one card, three chips.
	seen := now.Add(-90 * time.Minute)
	storetest.Series(ctx, t, st,
		storetest.SeriesOpts{Site: "mangadex", ID: "sc0md", Title: titles[0], LatestNumber: "21",
			LatestURL: "https://mangadex.test/chapter/sc0md", SeenAt: &seen, CheckedAt: &seen},
		storetest.SeriesOpts{Site: "weebcentral", ID: "sc0wc", Title: titles[0], LatestNumber: "18",
			LatestURL: "https://weebcentral.test/chapter/sc0wc", SeenAt: &seen, CheckedAt: &seen})
	if _, err := st.AddBookmark(ctx, 1, "mangadex", "sc0md", "https://mangadex.test/series/sc0md"); err != nil {
		t.Fatal(err)
	}
	al := []store.ExternalID{{Kind: "al", Value: "30002", Source: store.IDFromSite}}
	if _, err := st.AddSeriesIDs(ctx, []store.SeriesIDs{{Site: admintest.SiteNames[0], SeriesID: "sc0", IDs: al},
		{Site: "mangadex", SeriesID: "sc0md", IDs: al}, {Site: "weebcentral", SeriesID: "sc0wc", IDs: al}}); err != nil {
		t.Fatal(err)
	}
	if err := st.UpsertFailure(ctx, "weebcentral", "sc0wc", "not_found", now.Add(-72*time.Hour)); err != nil {
		t.Fatal(err)
	}
	// Bookmarked two months ago, so the Chapter Events above are Updates
	// (a chapter seen before its bookmark never is one).
	if _, err := st.Pool().Exec(ctx, `UPDATE bookmarks SET created_at = $1 WHERE reader_id = 1`, now.Add(-60*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	wk, err := st.WorkOf(ctx, "mangadex", "sc0md")
	if err != nil {
		t.Fatal(err)
	}
	return wk
}

// TestScreenshots renders the library and /admin at a phone's 360 px and a
// desktop's 1280 px and checks neither scrolls sideways. With
// MB_SCREENSHOTS=1 it writes them to docs/images/ (the README links them).
func TestScreenshots(t *testing.T) {
	chromiumtest.Require(t)
	f := newFixture(t, "")
	wk := "/works/" + strconv.FormatInt(seedShowcase(t, f.st), 10)
	dir := t.TempDir()
	if os.Getenv("MB_SCREENSHOTS") == "1" {
		dir = filepath.Join("..", "..", "docs", "images")
	}
	p := openPage(t)
	browserLogin(t, p, f.srv.URL, f.ownerToken)
	for _, shot := range []struct {
		name, path string
		width      int
		dark       bool
	}{
		{"library-360", "/", 360, false}, {"library-1280", "/", 1280, false}, {"library-360-dark", "/", 360, true},
		{"library-1280-dark", "/", 1280, true}, {"library-grid-1280", "/?view=grid", 1280, false}, {"library-grid-360", "/?view=grid", 360, false},
		{"series-360", "/series/" + admintest.SiteNames[0] + "/sc0", 360, false}, {"series-1280-dark", "/series/" + admintest.SiteNames[0] + "/sc0", 1280, true},
		{"work-360", wk, 360, false}, {"work-1280-dark", wk, 1280, true},
		{"updates-360", "/updates", 360, false}, {"updates-1280-dark", "/updates", 1280, true},
		{"admin-360", "/admin", 360, false}, {"admin-1280", "/admin", 1280, false}, {"lane-1280", "/admin/lanes/weebcentral", 1280, false},
	} {
		p.MustSetViewport(shot.width, 800, 1, shot.width < 500)
		scheme := "light"
		if shot.dark {
			scheme = "dark"
		}
		if err := (proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}).Call(p); err != nil {
			t.Fatal(err)
		}
		p.MustNavigate(f.srv.URL + shot.path).MustWaitLoad()
		p.MustWaitIdle()
		if w := p.MustEval(`() => document.documentElement.scrollWidth`).Int(); w > shot.width {
			t.Errorf("%s scrolls sideways: %d px wide in a %d px window", shot.name, w, shot.width)
		}
		png, err := p.Screenshot(true, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, shot.name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
