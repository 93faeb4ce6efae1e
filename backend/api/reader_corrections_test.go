package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// seedLatest gives Series mangapill/7 the Latest Chapter 12, as a good Lane
// read would.
func seedLatest(t *testing.T, e *readerEnv) {
	t.Helper()
	ctx := context.Background()
	r, err := e.st.UpsertReader(ctx, "999", "seed", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.AddBookmark(ctx, r.ID, "mangapill", "7", "https://mangapill.com/manga/7"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.RecordOK(ctx, "mangapill", "7", store.ReadFacts{Title: "T", Number: "12"}, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// The attack: a script on the Site pushes chapter 999999 of a Series; the
// userscript reports it. Today it sets Progress for good (the Reader never
// sees a New Chapter again); it must be refused and listed.
func TestForgedReadPastLatestIsRefused(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	seedLatest(t, e)
	const who = "200000000000000002"
	tok := e.token(who)
	got := postReads(t, e, tok, batch(read("mangapill", "7", "10", "2026-05-01T10:00:00Z"),
		read("mangapill", "7", "999999", "2026-05-01T10:01:00Z"), read("mangapill", "7", "22", "2026-05-01T10:02:00Z")))
	if got.Applied != 2 || len(got.Errors) != 1 || got.Errors[0].Index != 1 || !strings.HasPrefix(got.Errors[0].Error, "past_latest:") {
		t.Fatalf("batch with a forged read: %+v", got)
	}
	if p := progressOf(t, e, who, "mangapill", "7"); p.Number != "22" {
		t.Fatalf("progress %s, want 22", p.Number)
	}
	// The single-read path (the userscript's usual request) refuses too.
	got = postReads(t, e, tok, batch(read("mangapill", "7", "999999", "2026-05-01T10:03:00Z")))
	if len(got.Errors) != 1 || !strings.HasPrefix(got.Errors[0].Error, "past_latest:") {
		t.Fatalf("single forged read: %+v", got)
	}
	if p := progressOf(t, e, who, "mangapill", "7"); p.Number != "22" {
		t.Fatalf("progress %s after a forged read, want 22", p.Number)
	}
	// The Reader corrects Progress explicitly, lower and higher.
	for _, n := range []string{"5", "30"} {
		code, body := e.do(tok, "PUT", "/api/bookmarks/mangapill/7/progress", `{"number":"`+n+`","url":"https://mangapill.com/chapters/7-100`+n+`/x-chapter-`+n+`"}`)
		if code != http.StatusOK {
			t.Fatalf("correct to %s: %d %s", n, code, body)
		}
		var b struct {
			Progress struct{ Number string } `json:"progress"`
		}
		if err := json.Unmarshal(body, &b); err != nil || b.Progress.Number != n {
			t.Fatalf("correct to %s: answer %s", n, body)
		}
		if p := progressOf(t, e, who, "mangapill", "7"); p.Number != n {
			t.Fatalf("progress %s, want %s", p.Number, n)
		}
	}
	for _, c := range []struct {
		path, body string
		want       int
	}{
		{"/api/bookmarks/mangapill/8/progress", `{"number":"3"}`, http.StatusNotFound},
		{"/api/bookmarks/nosuch/7/progress", `{"number":"3"}`, http.StatusNotFound},
		{"/api/bookmarks/mangapill/7/progress", `{"number":"x"}`, http.StatusBadRequest},
		{"/api/bookmarks/mangapill/7/progress", `{}`, http.StatusBadRequest},
		{"/api/bookmarks/mangapill/7/progress", `{"number":"3","url":"https://evil.example/x"}`, http.StatusBadRequest},
	} {
		if code, body := e.do(tok, "PUT", c.path, c.body); code != c.want {
			t.Errorf("PUT %s %s: %d %s, want %d", c.path, c.body, code, body, c.want)
		}
	}
}

// Reads a page script forges for Series the Reader never bookmarked: by
// default they add bookmarks marked added_by "read"; with auto_add_reads
// off they add nothing.
func TestAutoAddReadsPreferenceAPI(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token("200000000000000003")
	code, body := e.do(tok, "GET", "/api/me/preferences", "")
	if code != http.StatusOK || strings.TrimSpace(string(body)) != `{"auto_add_reads":true}` {
		t.Fatalf("default preferences: %d %s", code, body)
	}
	postReads(t, e, tok, batch(read("mangapill", "41", "3", "2026-05-01T10:00:00Z")))
	if code, body := e.do(tok, "POST", "/api/bookmarks", `{"url":"https://mangapill.com/manga/42"}`); code != http.StatusCreated {
		t.Fatalf("add: %d %s", code, body)
	}
	code, body = e.do(tok, "GET", "/api/bookmarks", "")
	if code != http.StatusOK {
		t.Fatalf("list: %d %s", code, body)
	}
	var list struct {
		Bookmarks []struct {
			SeriesID string `json:"series_id"`
			AddedBy  string `json:"added_by"`
		} `json:"bookmarks"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	by := map[string]string{}
	for _, b := range list.Bookmarks {
		by[b.SeriesID] = b.AddedBy
	}
	if by["41"] != "read" || by["42"] != "reader" {
		t.Fatalf("added_by %v, want 41 read and 42 reader (%s)", by, body)
	}
	if code, body := e.do(tok, "PUT", "/api/me/preferences", `{"auto_add_reads":false}`); code != http.StatusOK || strings.TrimSpace(string(body)) != `{"auto_add_reads":false}` {
		t.Fatalf("turn off: %d %s", code, body)
	}
	got := postReads(t, e, tok, batch(read("mangapill", "43", "3", "2026-05-01T10:00:00Z")))
	if got.Applied != 0 || got.Ignored != 1 || len(got.Errors) != 0 {
		t.Fatalf("read with auto-add off: %+v", got)
	}
	if n := len(listBookmarks(t, e, tok)); n != 2 {
		t.Fatalf("%d bookmarks after a read with auto-add off, want 2", n)
	}
	for _, bad := range []string{`{}`, `{"auto_add_reads":"no"}`, `{"auto_add_reads":true,"x":1}`} {
		if code, _ := e.do(tok, "PUT", "/api/me/preferences", bad); code != http.StatusBadRequest {
			t.Errorf("PUT preferences %s: %d, want 400", bad, code)
		}
	}
}
