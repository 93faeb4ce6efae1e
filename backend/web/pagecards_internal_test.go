package web

import (
	"net/http/httptest"
	"testing"

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
	if cards[1].key != "second\ncomix b" {
		t.Fatalf("comix/b's key %q, want its title and site id on two lines", cards[1].key)
	}
}
