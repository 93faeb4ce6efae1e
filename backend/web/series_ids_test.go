package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"mangabookmark/backend/store"
)

// The Series page's "name an id" form takes any MangaUpdates form, a link
// to its page included, and stores the canonical id (rmnzb04 is
// 60143657332: mihonapp/mihon PR #3776, via docs/sources.md (ids), read 2026-12-06);
// a crosswalk id on the page credits MangaBaka.
func TestSeriesPageNamesMangaUpdatesFormsAndCreditsTheCrosswalk(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	seedWork(t, f)
	ctx := context.Background()
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/series/mangapill/2")
	a := f.postForm(t, c, "/series/mangapill/2/ids", url.Values{"csrf": {tok}, "kind": {"mu"},
		"value": {"https://www.mangaupdates.com/series/rmnzb04/youjo-senki-restaurant"}, "back": {"/series/mangapill/2"}})
	if a.code != http.StatusSeeOther {
		t.Fatalf("naming a MangaUpdates link: %d %s", a.code, a.body)
	}
	ids, err := f.st.SeriesExternalIDs(ctx, 2, "mangapill", "2")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, id := range ids {
		found = found || (id.Kind == "mu" && id.Value == "60143657332")
	}
	if !found {
		t.Fatalf("ids %+v, want mu 60143657332", ids)
	}
	if b := f.get(t, c, "/series/mangapill/2").body; strings.Contains(b, "MangaBaka</a>'s cross-reference") {
		t.Fatal("the credit shows with no crosswalk id")
	}
	if _, err := f.st.AddSeriesIDs(ctx, []store.SeriesIDs{{Site: "mangapill", SeriesID: "2",
		IDs: []store.ExternalID{{Kind: "mb", Value: "1001", Source: store.IDFromCrosswalk}}}}); err != nil {
		t.Fatal(err)
	}
	b := f.get(t, c, "/series/mangapill/2").body
	if !strings.Contains(b, "mb <strong>1001</strong>") || !strings.Contains(b, "MangaBaka</a>'s cross-reference") {
		t.Fatal("the Series page with a crosswalk id lacks the id or MangaBaka's credit")
	}
}
