package sitesim

import (
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Publish draws about PerDay chapters a day; each shows on its Series'
// own pages as the Latest Chapter and on the listing, newest first; a bulk
// upload fills page 1 with one Series.
func TestPublishAndListings(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	now := start
	sim := mustNew(t, Config{SeriesPerSite: 2000, Now: func() time.Time { return now }, Epoch: start})
	for _, site := range []string{MangaDex, MangaPill, WeebCentral} {
		if err := sim.Publish(site, Publishing{PerDay: 750, Seed: 1, Horizon: 24 * time.Hour}); err != nil {
			t.Fatal(err)
		}
	}
	if err := sim.Publish(MangaDex, Publishing{}); err == nil {
		t.Fatal("a zero rate was accepted")
	}
	now = start.Add(24 * time.Hour)
	rel := sim.Releases(MangaDex, now)
	if len(rel) < 650 || len(rel) > 850 {
		t.Fatalf("%d chapters in a day at 750/day", len(rel))
	}
	last := rel[len(rel)-1]
	if got := sim.Latest(MangaDex, last.SeriesID); !strings.HasPrefix(got, strconv.Itoa(last.Number)) {
		t.Fatalf("Series %s shows %s, its newest release is %d", last.SeriesID, got, last.Number)
	}

	get := func(site, path string) string {
		w := httptest.NewRecorder()
		sim.Handler(site).ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != 200 {
			t.Fatalf("%s %s: %d", site, path, w.Code)
		}
		return w.Body.String()
	}
	var md struct {
		Data []struct {
			Attributes struct {
				Chapter    string `json:"chapter"`
				ReadableAt string `json:"readableAt"`
			} `json:"attributes"`
			Relationships []struct{ ID, Type string } `json:"relationships"`
		} `json:"data"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal([]byte(get(MangaDex, "/chapter?limit=100&offset=0&order[readableAt]=desc")), &md); err != nil {
		t.Fatal(err)
	}
	if len(md.Data) != 100 || md.Total != len(rel) {
		t.Fatalf("mangadex listing: %d rows, total %d", len(md.Data), md.Total)
	}
	if md.Data[0].Relationships[1].ID != last.SeriesID || md.Data[0].Attributes.Chapter != strconv.Itoa(last.Number) ||
		md.Data[0].Attributes.ReadableAt < md.Data[99].Attributes.ReadableAt {
		t.Fatalf("mangadex listing not newest first: %+v", md.Data[0])
	}
	if n := strings.Count(get(MangaPill, "/chapters"), "<time-ago"); n != MangaPillListingSize {
		t.Fatalf("mangapill listing: %d cards", n)
	}
	wc := get(WeebCentral, "/latest-updates/2")
	if n := strings.Count(wc, "<article"); n != WeebCentralListingSize || !strings.Contains(wc, "View More") {
		t.Fatalf("weebcentral page 2: %d articles", n)
	}

	sim.BulkUpload(MangaDex, 7, 150, now)
	if err := json.Unmarshal([]byte(get(MangaDex, "/chapter?limit=100&offset=0")), &md); err != nil {
		t.Fatal(err)
	}
	for _, d := range md.Data {
		if d.Relationships[1].ID != sim.SeriesID(MangaDex, 7) {
			t.Fatalf("bulk upload did not flush page 1: %+v", d)
		}
	}
	sim.SetListing(MangaPill, Behavior{Mode: ServerError})
	w := httptest.NewRecorder()
	sim.Handler(MangaPill).ServeHTTP(w, httptest.NewRequest("GET", "/chapters", nil))
	if w.Code != 503 || sim.ListingHits(MangaPill) != 2 {
		t.Fatalf("scripted listing: %d, hits %d", w.Code, sim.ListingHits(MangaPill))
	}
}
