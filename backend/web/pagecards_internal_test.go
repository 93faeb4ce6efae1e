package web

import (
	"net/http/httptest"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// A card whose Work is gone between the page's two reads (unlinked, or
// dissolved, after store.LibraryPage) shows each of its bookmarks as a
// card of its own, in their order, rather than a Work card of nothing.
func TestPageCardsSplitsAWorkGoneSinceThePage(t *testing.T) {
	t.Parallel()
	h := New(Deps{Store: dbtest.New(t)})
	gone := int64(404)
	page := []store.LibraryCard{{WorkID: &gone, Items: []store.LibraryItem{
		{Bookmark: store.Bookmark{Site: "mangadex", SeriesID: "a", Title: "First"}},
		{Bookmark: store.Bookmark{Site: "comix", SeriesID: "b", Title: "Second"}},
	}}}
	cards, err := h.pageCards(httptest.NewRequest("GET", "/", nil), 1, page)
	if err != nil {
		t.Fatal(err)
	}
	if len(cards) != 2 || cards[0].work != nil || cards[1].work != nil ||
		cards[0].items[0].SeriesID != "a" || cards[1].items[0].SeriesID != "b" {
		t.Fatalf("cards %+v, want mangadex/a and comix/b, each alone", cards)
	}
}

// A Work card's Continue is the store's, in Work numbers as the store
// computed them (exact: 8.3, not float64's 8.299999999999999), else,
// when the store knows none or its link is not a Site's, chapter 9 (the
// one after Progress 8) to pick on the Series page of the member showing
// the Latest: never the Latest itself, past unread chapters.
func TestWorkCardContinueIsTheStores(t *testing.T) {
	t.Parallel()
	item := store.LibraryItem{Bookmark: store.Bookmark{Site: "comix", SeriesID: "b", Title: "B", LatestNumber: "8.5"},
		ContinueNumber: "8.2", ContinueURL: "https://comix.example/b/8.2"}
	for _, c := range []struct{ number, url, wantNumber, wantURL string }{
		{"8.3", "https://comix.example/b/8.2", "8.3", "https://comix.example/b/8.2"},
		{"", "", "9", "https://mangadex.example/title/a"},
		{"8.3", "javascript:alert(1)", "9", "https://mangadex.example/title/a"},
		{"10", "https://comix.example/b/10", "9", "https://mangadex.example/title/a"},
	} {
		wk := &store.Work{ID: 7, Title: "B", New: true, ProgressNumber: "8",
			Latest:         &store.WorkLatest{Number: "11", Site: "mangadex", SeriesID: "a", URL: "https://mangadex.example/a/11"},
			ContinueNumber: c.number, ContinueURL: c.url,
			Members: []store.WorkMember{{Site: "comix", SeriesID: "b", Offset: "0.1", URL: "https://comix.example/title/b"},
				{Site: "mangadex", SeriesID: "a", Offset: "0", URL: "https://mangadex.example/title/a"}}}
		li := libraryCard{items: []store.LibraryItem{item}, work: wk}.view(time.Now())
		if li.ContinueNumber != c.wantNumber || li.ContinueURL != c.wantURL || li.ContinuePick != (c.wantURL == "https://mangadex.example/title/a") {
			t.Errorf("store's Continue %q %q: card's %q %q, want %q %q", c.number, c.url, li.ContinueNumber, li.ContinueURL, c.wantNumber, c.wantURL)
		}
	}
}
