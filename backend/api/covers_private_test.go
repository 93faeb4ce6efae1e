package api_test

import (
	"context"
	"net/http"
	"testing"

	"mangabookmark/backend/store/storetest"
)

// Any Reader could fetch any cover, and 200 against 404 told which Series
// other Readers follow. Now a Series not in the Reader's library answers
// exactly as one with no cover; the image is served so it can run nothing.
func TestCoversOnlyOfTheReadersBookmarks(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	owner, other := e.token("200000000000000002"), e.token("200000000000000003")
	if code, body := e.do(owner, "POST", "/api/bookmarks", `{"url":"https://mangapill.com/manga/2"}`); code != http.StatusCreated {
		t.Fatalf("add: %d %s", code, body)
	}
	storetest.Cover(context.Background(), t, e.st, storetest.CoverOpts{Site: "mangapill", SeriesID: "2", SourceURL: "https://cdn.example/c.png"})
	code, h, _ := e.doH(owner, "GET", "/covers/mangapill/2", "", nil)
	if code != http.StatusOK || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Content-Security-Policy") != "default-src 'none'" {
		t.Fatalf("own cover: %d %v", code, h)
	}
	_, _, followed := e.doH(other, "GET", "/covers/mangapill/2", "", nil)
	codeNone, _, none := e.doH(other, "GET", "/covers/mangapill/3", "", nil)
	codeFollowed, _, _ := e.doH(other, "GET", "/covers/mangapill/2", "", nil)
	if codeFollowed != http.StatusNotFound || codeNone != http.StatusNotFound || string(followed) != string(none) {
		t.Fatalf("another Reader: %d %s vs %d %s, want the same 404 for both", codeFollowed, followed, codeNone, none)
	}
}
