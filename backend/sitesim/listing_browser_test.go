package sitesim

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestBrowserListings: Kagane's search (POST only) and natomanga's
// latest-manga page list each Series once, most recently updated first,
// behind the listing's (or the Site's) failure mode.
func TestBrowserListings(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	now := start
	sim := mustNew(t, Config{SeriesPerSite: 500, Now: func() time.Time { return now }, Epoch: start})
	for _, site := range []string{Kagane, Natomanga} {
		if err := sim.Publish(site, Publishing{PerDay: 500, Seed: 2, Horizon: 24 * time.Hour}); err != nil {
			t.Fatal(err)
		}
	}
	now = start.Add(12 * time.Hour)
	serve := func(site, method, path string) (int, string) {
		w := httptest.NewRecorder()
		sim.Handler(site).ServeHTTP(w, httptest.NewRequest(method, path, strings.NewReader(`{}`)))
		return w.Code, w.Body.String()
	}
	search := "/api/v2/search/series?page=0&size=100&sort=updated_at,desc"
	if code, _ := serve(Kagane, "GET", search); code != 405 {
		t.Fatalf("GET search: %d", code)
	}
	code, body := serve(Kagane, "POST", search)
	var page struct {
		Content []struct {
			SeriesID     string `json:"series_id"`
			CurrentBooks int    `json:"current_books"`
		} `json:"content"`
		Last bool `json:"last"`
	}
	if err := json.Unmarshal([]byte(body), &page); code != 200 || err != nil || len(page.Content) != 100 || page.Last {
		t.Fatalf("search: %d %v, %d lines, last %v", code, err, len(page.Content), page.Last)
	}
	rel := sim.Releases(Kagane, now)
	newest := rel[len(rel)-1]
	if page.Content[0].SeriesID != newest.SeriesID || page.Content[0].CurrentBooks != newest.Number {
		t.Fatalf("top line %+v, newest release %+v", page.Content[0], newest)
	}
	ids := map[string]bool{}
	for _, c := range page.Content {
		if ids[c.SeriesID] {
			t.Fatalf("Series %s listed twice", c.SeriesID)
		}
		ids[c.SeriesID] = true
	}
	if code, body := serve(Kagane, "GET", "/"); code != 200 || !strings.Contains(body, `id="root"`) {
		t.Fatalf("home: %d", code)
	}

	code, body = serve(Natomanga, "GET", "/manga-list/latest-manga?page=1")
	if code != 200 || strings.Count(body, `class="list-comic-item-wrap"`) != NatomangaListingSize ||
		!strings.Contains(body, "/manga/"+newestOf(sim, Natomanga, now)+`"`) {
		t.Fatalf("natomanga latest: %d\n%.600s", code, body)
	}

	sim.SetListing(Natomanga, Behavior{Mode: Challenge})
	sim.SetSite(Kagane, Behavior{Mode: Challenge})
	for _, c := range []struct{ site, method, path string }{{Natomanga, "GET", "/manga-list/latest-manga?page=1"}, {Kagane, "POST", search}, {Kagane, "GET", "/"}} {
		if code, body := serve(c.site, c.method, c.path); code != 403 || !strings.Contains(body, "Just a moment") {
			t.Errorf("%s %s challenged: %d", c.site, c.path, code)
		}
	}
	sim.SetSite(Kagane, Behavior{})
	sim.SetListing(Kagane, Behavior{Mode: LayoutChanged})
	if _, body := serve(Kagane, "POST", search); strings.Contains(body, `"content"`) || !strings.Contains(body, `"items"`) {
		t.Errorf("changed search still has content: %.200s", body)
	}
}

func newestOf(sim *Sim, site string, now time.Time) string {
	rel := sim.Releases(site, now)
	return rel[len(rel)-1].SeriesID
}
