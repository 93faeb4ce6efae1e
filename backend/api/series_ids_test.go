package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// PUT …/ids takes every MangaUpdates form and stores the one canonical id
// (rmnzb04 is 60143657332: mihonapp/mihon PR #3776, via
// docs/sources.md ("Ids, MangaBaka and MangaUpdates"), read 2026-12-06); a malformed one is 400
// naming the kind and the forms expected, and saves nothing.
func TestPutSeriesIDMangaUpdatesForms(t *testing.T) {
	t.Parallel()
	w := newWorksWorld(t)
	for _, c := range []struct{ body, want string }{
		{`{"kind":"mu","value":"rmnzb04"}`, `{"kind":"mu","value":"60143657332","source":"mine"}`},
		{`{"kind":"mu","value":"60143657332"}`, `{"kind":"mu","value":"60143657332","source":"mine"}`},
		{`{"kind":"mu","value":"https://www.mangaupdates.com/series/rmnzb04/youjo-senki-restaurant"}`, `{"kind":"mu","value":"60143657332","source":"mine"}`},
		{`{"kind":"mu","value":"156244"}`, `{"kind":"mu_legacy","value":"156244","source":"mine"}`},
	} {
		code, body := w.e.do(w.other, "PUT", "/api/series/mangapill/3/ids", c.body)
		if code != http.StatusOK || !strings.Contains(string(body), c.want) {
			t.Fatalf("PUT ids %s: %d %s, want %s", c.body, code, body, c.want)
		}
	}
	before := w.e.count("series_ids")
	for _, c := range []struct{ body, want string }{
		{`{"kind":"mu","value":"300000"}`, "kind mu"},
		{`{"kind":"mu","value":"rmnzb0"}`, "7-character URL id"},
		{`{"kind":"mu_legacy","value":"rmnzb04"}`, "kind mu_legacy"},
		{`{"kind":"mu","value":"https://evil.example/series/rmnzb04"}`, "names no mu id"},
		{`{"kind":"al","value":"x"}`, "AniList's number"},
	} {
		code, body := w.e.do(w.other, "PUT", "/api/series/mangapill/3/ids", c.body)
		if code != http.StatusBadRequest || !strings.Contains(string(body), c.want) {
			t.Fatalf("PUT ids %s: %d %s, want 400 saying %q", c.body, code, body, c.want)
		}
	}
	if n := w.e.count("series_ids"); n != before {
		t.Fatalf("%d ids after refusals, want %d", n, before)
	}
}
