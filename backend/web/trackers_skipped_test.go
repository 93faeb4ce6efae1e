package web_test

import (
	"net/http"
	"strings"
	"testing"

	"mangabookmark/client"
)

// TestTrackerCardShowsSkipped: a bookmark whose ids name two AniList
// media is listed on the card, its title escaped, with both media and a
// link to its Series page where the wrong id is removed.
func TestTrackerCardShowsSkipped(t *testing.T) {
	t.Parallel()
	w := newTrackerWorld(t, true)
	w.tr.set(readerID, client.Tracker{Service: "anilist", Username: "aki", Pull: true, State: "ok", LastPullAt: &lastPull,
		Skipped: []client.TrackerSkip{{Site: "mangadex", SeriesID: "two", Title: `<b>Twice</b>`, MediaIDs: []string{"7001", "7002"}}}})
	c := w.login(t, w.readerToken)
	page := w.get(t, c, "/settings")
	if page.code != http.StatusOK {
		t.Fatalf("settings: %d", page.code)
	}
	for _, want := range []string{"Left alone: two AniList ids", `href="/series/mangadex/two"`, "&lt;b&gt;Twice&lt;/b&gt;", "7001, 7002"} {
		if !strings.Contains(page.body, want) {
			t.Errorf("the card lacks %q", want)
		}
	}
	if strings.Contains(page.body, "<b>Twice</b>") {
		t.Error("a Series title reached the page unescaped")
	}
}
