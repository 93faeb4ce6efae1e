package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store/storetest"
	"mangabookmark/client"
)

func decodeBookmark(t *testing.T, body []byte) client.Bookmark {
	t.Helper()
	var b client.Bookmark
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return b
}

// errorOf returns the "error" sentence of an error body.
func errorOf(t *testing.T, body []byte) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error == "" {
		t.Errorf("not an error body: %s", body)
	}
	return e.Error
}

func listBookmarks(t *testing.T, e *readerEnv, tok string) []client.Bookmark {
	t.Helper()
	code, body := e.do(tok, "GET", "/api/bookmarks", "")
	if code != http.StatusOK {
		t.Fatalf("list: %d %s", code, body)
	}
	var out struct {
		Bookmarks []client.Bookmark `json:"bookmarks"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	return out.Bookmarks
}

// Every Series and chapter URL shape the canonicaliser accepts bookmarks
// the right Series.
func TestAddBookmarkByEveryURLShape(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token("200000000000000002")
	cases := []struct {
		url, site, id string
	}{
		{"https://kagane.to/series/019c29bc-0812-7957-8d3f-0a1b2c3d4e5f", "kagane", "019c29bc-0812-7957-8d3f-0a1b2c3d4e5f"},
		{"https://www.kagane.org/series/019C29BC-0812-7957-8D3F-0A1B2C3D4E5F/reader/abc", "kagane", "019c29bc-0812-7957-8d3f-0a1b2c3d4e5f"},
		{"https://comix.to/title/keqvv-whos-that-girl", "comix", "keqvv-whos-that-girl"},
		{"https://www.comix.ws/title/keqvv-whos-that-girl/123-chapter-4", "comix", "keqvv-whos-that-girl"},
		{"https://www.natomanga.com/manga/solo-leveling", "natomanga", "solo-leveling"},
		{"https://nelomanga.net/manga/solo-leveling/chapter-12", "natomanga", "solo-leveling"},
		{"https://mangakakalot.gg/manga/solo-leveling", "natomanga", "solo-leveling"},
		{"https://mangadex.org/title/a1c7c817-4e59-43b7-9365-09675a149a6f/one-piece", "mangadex", "a1c7c817-4e59-43b7-9365-09675a149a6f"},
		{"https://mangadex.org/manga/a1c7c817-4e59-43b7-9365-09675a149a6f", "mangadex", "a1c7c817-4e59-43b7-9365-09675a149a6f"},
		{"https://weebcentral.com/series/01J76XY7E9FNDZ1DBBM6PBJPFK/One-Piece", "weebcentral", "01J76XY7E9FNDZ1DBBM6PBJPFK"},
		{"https://mangapill.com/manga/2/one-piece", "mangapill", "2"},
		{"https://www.mangapill.com/chapters/2-11184000/one-piece-chapter-1184", "mangapill", "2"},
		{"http://MANGAPILL.com/manga/0002/one-piece?utm=1#top", "mangapill", "2"},
		{"  https://weebcentral.com/series/01j76xy7e9fndz1dbbm6pbjpfk  ", "weebcentral", "01J76XY7E9FNDZ1DBBM6PBJPFK"},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		body, _ := json.Marshal(map[string]string{"url": c.url})
		code, resp := e.do(tok, "POST", "/api/bookmarks", string(body))
		key := c.site + "/" + c.id
		want := http.StatusCreated
		if seen[key] {
			want = http.StatusOK // the same Series again: idempotent
		}
		seen[key] = true
		if code != want {
			t.Errorf("%s: %d %s, want %d", c.url, code, resp, want)
			continue
		}
		b := decodeBookmark(t, resp)
		if b.Site != c.site || b.SeriesID != c.id {
			t.Errorf("%s: bookmarked %s/%s, want %s", c.url, b.Site, b.SeriesID, key)
		}
		if b.URL == "" || b.Latest != nil || b.Progress != nil || b.New {
			t.Errorf("%s: fresh bookmark = %+v", c.url, b)
		}
	}
	if got := len(listBookmarks(t, e, tok)); got != len(seen) {
		t.Fatalf("list has %d bookmarks, want %d", got, len(seen))
	}
	if n := e.count("series"); n != len(seen) {
		t.Fatalf("series rows = %d, want %d", n, len(seen))
	}
}

func TestAddBookmarkRefusals(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token("200000000000000002")
	for name, c := range map[string]struct {
		body string
		code int
		msg  string
	}{
		"unknown site":     {`{"url":"https://example.com/manga/1"}`, 422, "not one of the Sites"},
		"no series":        {`{"url":"https://mangadex.org/chapter/a1c7c817-4e59-43b7-9365-09675a149a6f"}`, 422, "Series"},
		"site home":        {`{"url":"https://mangapill.com/"}`, 422, "Series"},
		"not a url":        {`{"url":"javascript:alert(1)"}`, 422, "http"},
		"ip host":          {`{"url":"http://127.0.0.1/manga/2"}`, 422, "IP"},
		"missing url":      {`{}`, 400, `"url"`},
		"blank url":        {`{"url":"  "}`, 400, `"url"`},
		"url not a string": {`{"url":12}`, 400, `"url"`},
		"unknown field":    {`{"url":"https://mangapill.com/manga/2","x":1}`, 400, `"x"`},
		"two objects":      {`{"url":"https://mangapill.com/manga/2"}{}`, 400, "exactly one"},
		"array body":       {`[]`, 400, "object"},
		"malformed":        {`{"url":`, 400, "JSON"},
		"empty":            {``, 400, "empty"},
	} {
		code, body := e.do(tok, "POST", "/api/bookmarks", c.body)
		if code != c.code || !strings.Contains(errorOf(t, body), c.msg) {
			t.Errorf("%s: %d %s, want %d mentioning %q", name, code, body, c.code, c.msg)
		}
	}
	if n := e.count("bookmarks") + e.count("series"); n != 0 {
		t.Fatalf("refused adds wrote %d rows", n)
	}
}

func TestRemoveBookmarkDropsOrphanSeries(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	a := e.token("200000000000000002")
	b := e.token("200000000000000003")
	add := func(tok, url string) {
		if code, body := e.do(tok, "POST", "/api/bookmarks", `{"url":"`+url+`"}`); code != http.StatusCreated {
			t.Fatalf("add %s: %d %s", url, code, body)
		}
	}
	add(a, "https://mangapill.com/manga/2")
	add(b, "https://mangapill.com/manga/2")
	add(a, "https://mangapill.com/manga/3")
	progress := `{"reads":[{"site":"mangapill","series_id":"3","number":"4","url":"","read_at":"2026-05-01T10:00:00Z"}]}`
	if code, body := e.do(a, "POST", "/api/progress", progress); code != http.StatusOK {
		t.Fatalf("progress: %d %s", code, body)
	}

	// Shared Series: the other Reader's bookmark keeps it.
	if code, body := e.do(a, "DELETE", "/api/bookmarks/mangapill/2", ""); code != http.StatusNoContent {
		t.Fatalf("delete shared: %d %s", code, body)
	}
	if _, err := e.st.GetSeries(context.Background(), "mangapill", "2"); err != nil {
		t.Fatalf("shared Series removed: %v", err)
	}
	// Last bookmark: the Series and the Progress go.
	if code, body := e.do(a, "DELETE", "/api/bookmarks/mangapill/3", ""); code != http.StatusNoContent {
		t.Fatalf("delete last: %d %s", code, body)
	}
	if _, err := e.st.GetSeries(context.Background(), "mangapill", "3"); err == nil {
		t.Fatal("orphan Series kept")
	}
	if n := e.count("progress"); n != 0 {
		t.Fatalf("progress rows = %d after delete", n)
	}
	if code, _ := e.do(a, "DELETE", "/api/bookmarks/mangapill/3", ""); code != http.StatusNotFound {
		t.Fatalf("second delete: %d, want 404", code)
	}
	code, body := e.do(a, "DELETE", "/api/bookmarks/nosuchsite/3", "")
	if code != http.StatusNotFound || !strings.Contains(string(body), "mangapill") {
		t.Fatalf("unknown site: %d %s, want 404 naming the Sites", code, body)
	}
	if got := listBookmarks(t, e, b); len(got) != 1 || got[0].SeriesID != "2" {
		t.Fatalf("other Reader's bookmarks = %+v", got)
	}
}

// The list carries the Latest Chapter, Progress and the New Chapter flag.
func TestBookmarkListLatestProgressNew(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token("200000000000000002")
	ctx := context.Background()
	for _, id := range []string{"2", "3", "4"} {
		if code, body := e.do(tok, "POST", "/api/bookmarks", `{"url":"https://mangapill.com/manga/`+id+`"}`); code != http.StatusCreated {
			t.Fatalf("add: %d %s", code, body)
		}
	}
	// Latest Chapter 10.5 on 2 and 3, none on 4; Progress 10 on 2, 10.5 on 3.
	storetest.SetSeries(ctx, t, e.st, storetest.SeriesSet{IDs: []string{"2", "3"}, Title: "T",
		LatestNumber: "10.5", LatestTitle: "Chapter 10.5", LatestURL: "https://mangapill.com/chapters/x",
		SeenAt: storetest.At(time.Date(2026, 4, 30, 0, 0, 0, 0, time.UTC))})
	reads := `{"reads":[
		{"site":"mangapill","series_id":"2","number":"10","url":"https://mangapill.com/chapters/2-10010000/t-chapter-10","read_at":"2026-05-01T10:00:00Z"},
		{"site":"mangapill","series_id":"3","number":"10.50","url":"","read_at":"2026-05-01T10:00:00Z"}]}`
	if code, body := e.do(tok, "POST", "/api/progress", reads); code != http.StatusOK {
		t.Fatalf("progress: %d %s", code, body)
	}
	got := map[string]client.Bookmark{}
	for _, b := range listBookmarks(t, e, tok) {
		got[b.SeriesID] = b
	}
	if b := got["2"]; !b.New || b.Latest == nil || b.Latest.Number != "10.5" || b.Progress == nil || b.Progress.Number != "10" || b.Latest.SeenAt == nil {
		t.Errorf("behind: %+v latest %+v progress %+v", b, b.Latest, b.Progress)
	}
	if b := got["3"]; b.New || b.Progress == nil || b.Progress.Number != "10.5" {
		t.Errorf("caught up: %+v", b)
	}
	if b := got["4"]; b.New || b.Latest != nil || b.Progress != nil {
		t.Errorf("nothing known: %+v", b)
	}
	// Raw JSON: latest and progress are null, not absent, when unknown.
	_, raw := e.do(tok, "GET", "/api/bookmarks", "")
	if !strings.Contains(string(raw), `"latest":null`) || !strings.Contains(string(raw), `"progress":null`) {
		t.Errorf("list JSON lacks explicit nulls: %s", raw)
	}
	// A chapter newer than the Latest Chapter is no error and clears New.
	newer := `{"reads":[{"site":"mangapill","series_id":"2","number":"11","url":"","read_at":"2026-05-01T11:00:00Z"}]}`
	if code, body := e.do(tok, "POST", "/api/progress", newer); code != http.StatusOK || !strings.Contains(string(body), `"applied":1`) {
		t.Fatalf("read past latest: %d %s", code, body)
	}
	for _, b := range listBookmarks(t, e, tok) {
		if b.SeriesID == "2" && b.New {
			t.Errorf("New after reading past the Latest Chapter: %+v", b)
		}
	}
}
