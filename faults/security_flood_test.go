package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store/storetest"
)

// floodAnswer is the decoded 200 of POST /api/progress.
type floodAnswer struct {
	Applied int `json:"applied"`
	Ignored int `json:"ignored"`
	Errors  []struct {
		Index int    `json:"index"`
		Error string `json:"error"`
	} `json:"errors"`
}

// postFlood sends reads of the given Series ids (chapter 1 each) and
// returns the status and the decoded answer.
func postFlood(t *testing.T, base, tok, site string, ids []string) (int, floodAnswer) {
	t.Helper()
	reads := make([]map[string]string, len(ids))
	for i, id := range ids {
		reads[i] = map[string]string{"site": site, "series_id": id, "number": "1",
			"read_at": time.Now().UTC().Add(-time.Minute).Format(time.RFC3339)}
	}
	body, _ := json.Marshal(map[string]any{"reads": reads})
	req, _ := http.NewRequestWithContext(context.Background(), "POST", base+"/api/progress", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("progress flood: %v", err)
	}
	defer resp.Body.Close()
	var out floodAnswer
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// TestSecurityFlood is issue 13 item 5 end to end: one Reader sends three
// requests of 500 made-up Series ids and a burst of new bookmarks; a
// Reader at the bookmark cap adds more. The flood is capped at the hour's
// allowance with every refused read listed, and a second Reader's new
// bookmark is among the first Series the Lane reads afterwards
// (docs/adr/0010-fair-due-order-and-reader-limits.md).
func TestSecurityFlood(t *testing.T) {
	needSuite(t)
	t.Parallel()
	d := newDeployment(t, "")
	site := sitesim.MangaPill
	// The API first, with polling off, so the whole flood is in before the
	// Lane's first pass picks its batch.
	api := d.serve("api", map[string]string{"LATEST_CHAPTER_POLL_ENABLED": "false"})
	tried := 0

	applied := 0
	for r := 0; r < 3; r++ {
		ids := make([]string, 500)
		for i := range ids {
			ids[i] = fmt.Sprint(900_000 + r*500 + i)
		}
		tried += len(ids)
		code, got := postFlood(t, api.url, d.reader, site, ids)
		if code != 200 || got.Applied+got.Ignored+len(got.Errors) != 500 {
			t.Fatalf("flood request %d: %d %+v", r, code, got)
		}
		for _, e := range got.Errors {
			if !strings.HasPrefix(e.Error, "new_series_limit: ") {
				t.Fatalf("flood request %d: read %d refused for %q, want the new Series limit", r, e.Index, e.Error)
			}
		}
		applied += got.Applied
	}
	if applied < 100 || applied > 101 {
		t.Fatalf("%d of 1500 made-up reads applied, want the hour's allowance (100)", applied)
	}
	for i := 0; i < 20; i++ { // bookmarks of more new Series: 429, nothing written
		tried++
		body, _ := json.Marshal(map[string]string{"url": d.sim.SeriesURL(site, fmt.Sprint(950_000+i))})
		if got := do("POST", api.url+"/api/bookmarks", d.reader, body); got != http.StatusTooManyRequests {
			t.Fatalf("new bookmark %d past the allowance: %d, want 429", i, got)
		}
	}
	if n := d.count(`SELECT count(*) FROM series WHERE site = $1`, site); n != applied {
		t.Fatalf("%d Series on %s, want the %d the allowance let in", n, site, applied)
	}

	// A Reader at the cap of 5000 bookmarks (put straight in the database).
	capTok, _ := d.mintWith(nil, "--reader", "300000000000000005", "--reader-name", "Cap", "--name", "cap")
	st, ctx := d.store(), context.Background()
	capReader, err := st.GetReaderByDiscordID(ctx, "300000000000000005")
	if err != nil {
		t.Fatal(err)
	}
	capSeries := make([]storetest.SeriesOpts, 5000)
	capMarks := make([]storetest.BookmarkOpts, 5000)
	for i := range capSeries {
		id := fmt.Sprint("cap-", i+1)
		capSeries[i] = storetest.SeriesOpts{Site: "mangadex", ID: id, URL: fmt.Sprint("https://x/", i+1), CheckedAt: storetest.At(time.Now())}
		capMarks[i] = storetest.BookmarkOpts{ReaderID: capReader.ID, Site: "mangadex", SeriesID: id}
	}
	storetest.Series(ctx, t, st, capSeries...)
	storetest.Bookmarks(ctx, t, st, capMarks...)
	tried++
	body, _ := json.Marshal(map[string]string{"url": d.sim.SeriesURL(site, d.sim.SeriesID(site, 20))})
	if got := do("POST", api.url+"/api/bookmarks", capTok, body); got != http.StatusConflict {
		t.Fatalf("bookmark 5001: %d, want 409", got)
	}
	tried++
	if code, got := postFlood(t, api.url, capTok, site, []string{d.sim.SeriesID(site, 21)}); code != 200 ||
		len(got.Errors) != 1 || !strings.HasPrefix(got.Errors[0].Error, "bookmark_limit: ") {
		t.Fatalf("a read past the cap: %d %+v, want it listed with the bookmark limit", code, got)
	}

	// Forged reads far past a known Latest Chapter (a page script pushing
	// "chapter 999999"): each is refused as past_latest and Progress stays
	// (docs/adr/0018-forged-reads-and-junk-series.md).
	forged := "900000"
	storetest.SetSeries(ctx, t, st, storetest.SeriesSet{Site: site, IDs: []string{forged}, LatestNumber: "40"})
	for _, n := range []string{"51", "999999", "41000.5", "50.0001"} {
		tried++
		reads := []map[string]string{{"site": site, "series_id": forged, "number": n,
			"read_at": time.Now().UTC().Format(time.RFC3339)}}
		body, _ := json.Marshal(map[string]any{"reads": reads})
		req, _ := http.NewRequestWithContext(context.Background(), "POST", api.url+"/api/progress", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+d.reader)
		req.Header.Set("Content-Type", "application/json")
		resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got floodAnswer
		_ = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if got.Applied != 0 || len(got.Errors) != 1 || !strings.HasPrefix(got.Errors[0].Error, "past_latest") {
			t.Fatalf("forged read of chapter %s past Latest 40: %d %+v, want it refused", n, resp.StatusCode, got)
		}
	}
	if n := d.count(`SELECT count(*) FROM progress WHERE site = $1 AND series_id = $2 AND number > 50`, site, forged); n != 0 {
		t.Fatalf("a forged read moved Progress past the Latest Chapter (%d rows)", n)
	}

	// Another Reader's one new bookmark, added after the whole flood.
	bob, _ := d.mintWith(nil, "--reader", "300000000000000004", "--reader-name", "Bob", "--name", "bob")
	bobID := d.sim.SeriesID(site, 7)
	body, _ = json.Marshal(map[string]string{"url": d.sim.SeriesURL(site, bobID)})
	if got := do("POST", api.url+"/api/bookmarks", bob, body); got != http.StatusCreated {
		t.Fatalf("Bob's bookmark: %d, want 201", got)
	}
	t.Logf("hostile inputs tried: %d", tried)

	// Now the Lanes: Bob's Series must be among the first reads of the
	// Site (one Reader's flood holds it back by one read here, not 1500).
	d.serve("lanes", nil)
	if !eventually(90*time.Second, 250*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM series WHERE site = $1 AND series_id = $2 AND latest_checked_at IS NOT NULL`, site, bobID) == 1
	}) {
		t.Fatalf("Bob's new bookmark was not read within 90 s; %d flood Series were read meanwhile",
			d.count(`SELECT count(*) FROM series WHERE site = $1 AND latest_checked_at IS NOT NULL`, site))
	}
	before := d.count(`SELECT count(*) FROM series WHERE site = $1 AND latest_checked_at <
		(SELECT latest_checked_at FROM series WHERE site = $1 AND series_id = $2)`, site, bobID)
	if before > 2 {
		t.Fatalf("%d Series were read before Bob's new bookmark, want at most 2", before)
	}
	t.Logf("Bob's new bookmark was read after %d flood Series", before)
	if !api.alive() || api.status("/healthz") != 200 {
		t.Fatal("the backend no longer answers /healthz")
	}
}
