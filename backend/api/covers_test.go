package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store/storetest"
)

func TestCoverServedWithValidators(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token("200000000000000002")
	if code, body := e.do(tok, "POST", "/api/bookmarks", `{"url":"https://mangapill.com/manga/2"}`); code != http.StatusCreated {
		t.Fatalf("add: %d %s", code, body)
	}
	// No cover stored yet: 404, and the list falls back to the Site's URL.
	if code, _ := e.do(tok, "GET", "/covers/mangapill/2", ""); code != http.StatusNotFound {
		t.Fatalf("no cover: %d, want 404", code)
	}
	ctx := context.Background()
	storetest.SetSeries(ctx, t, e.st, storetest.SeriesSet{IDs: []string{"2"}, CoverURL: "https://cdn.example/c.jpeg"})
	if got := listBookmarks(t, e, tok)[0].CoverURL; got != "https://cdn.example/c.jpeg" {
		t.Fatalf("cover_url without a stored cover = %q", got)
	}
	img := []byte("\x89PNG\r\n\x1a\nfake")
	fetched := time.Date(2026, 4, 1, 8, 0, 0, 0, time.UTC)
	storetest.Cover(ctx, t, e.st, storetest.CoverOpts{Site: "mangapill", SeriesID: "2", SourceURL: "https://cdn.example/c.jpeg", Body: img, FetchedAt: fetched})
	if got := listBookmarks(t, e, tok)[0].CoverURL; got != baseURL+"/covers/mangapill/2" {
		t.Fatalf("cover_url with a stored cover = %q", got)
	}
	code, h, body := e.doH(tok, "GET", "/covers/mangapill/2", "", nil)
	if code != http.StatusOK || string(body) != string(img) || h.Get("Content-Type") != "image/png" {
		t.Fatalf("cover: %d %q %q", code, h.Get("Content-Type"), body)
	}
	etag := h.Get("ETag")
	if etag == "" || !strings.Contains(h.Get("Cache-Control"), "max-age") || h.Get("Last-Modified") != fetched.Format(http.TimeFormat) {
		t.Fatalf("validators: %v", h)
	}
	if code, _, _ := e.doH(tok, "GET", "/covers/mangapill/2", "", http.Header{"If-None-Match": {etag}}); code != http.StatusNotModified {
		t.Fatalf("If-None-Match: %d, want 304", code)
	}
	if code, _, _ := e.doH(tok, "GET", "/covers/mangapill/2", "", http.Header{"If-None-Match": {`"other"`}}); code != http.StatusOK {
		t.Fatalf("stale If-None-Match: %d, want 200", code)
	}
	if code, _, _ := e.doH(tok, "GET", "/covers/mangapill/2", "", http.Header{"If-Modified-Since": {fetched.Format(http.TimeFormat)}}); code != http.StatusNotModified {
		t.Fatalf("If-Modified-Since: %d, want 304", code)
	}
	if code, _, _ := e.doH(tok, "GET", "/covers/mangapill/2", "", http.Header{"If-Modified-Since": {fetched.Add(-time.Hour).Format(http.TimeFormat)}}); code != http.StatusOK {
		t.Fatalf("older If-Modified-Since: %d, want 200", code)
	}
	if code, _ := e.do(tok, "GET", "/covers/nosuch/2", ""); code != http.StatusNotFound {
		t.Fatalf("unknown site: %d", code)
	}
	if code, _ := e.do("", "GET", "/covers/mangapill/2", ""); code != http.StatusUnauthorized {
		t.Fatalf("cover without token: %d, want 401", code)
	}
}
