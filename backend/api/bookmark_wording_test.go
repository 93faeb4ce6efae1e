package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// A refused bookmark URL answers one sentence built from the typed
// error's reason: no package prefix, no chain of wrapped error texts.
func TestBookmarkRefusalIsOneSentence(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token("200000000000000002")
	exact := map[string]string{
		"https://mangadex.org/title/notauuid":   `that URL cannot be bookmarked: "notauuid" is not a MangaDex Series id`,
		"https://mangapill.com/":                `that URL cannot be bookmarked: a Series link looks like /manga/{id}`,
		"ftp://mangapill.com/manga/2":           `that URL cannot be bookmarked: only http and https links are accepted, not "ftp"`,
		"https://user:pw@mangapill.com/manga/2": "that URL cannot be bookmarked: links with a user name or password are not accepted",
	}
	for u, want := range exact {
		code, body := e.do(tok, "POST", "/api/bookmarks", `{"url":"`+u+`"}`)
		if got := errorOf(t, body); code != http.StatusUnprocessableEntity || got != want {
			t.Errorf("%s: %d %q, want 422 %q", u, code, got, want)
		}
	}
	for _, u := range []string{"https://mangadex.org/chapter/a1c7c817-4e59-43b7-9365-09675a149a6f", "https://example.com/manga/1",
		"http://127.0.0.1/manga/2", "https://weebcentral.com/series", "https://comix.to/title", "https://kagane.org/x", "https://www.natomanga.com/"} {
		code, body := e.do(tok, "POST", "/api/bookmarks", `{"url":"`+u+`"}`)
		msg := errorOf(t, body)
		for _, chain := range []string{"sites:", "mangadex:", "weebcentral:", "comix:", "kagane:", "natomanga:", "mangapill:",
			": the URL names no Series", ": not a usable Site URL", ": no registered Site serves this host"} {
			if strings.Contains(msg, chain) {
				t.Errorf("%s: %d %q shows the error chain (%q)", u, code, msg, chain)
			}
		}
		if code != http.StatusUnprocessableEntity || strings.Count(msg, ": ") != 1 || !strings.HasPrefix(msg, "that URL cannot be bookmarked: ") {
			t.Errorf("%s: %d %q, want 422 and one sentence", u, code, msg)
		}
	}
}
