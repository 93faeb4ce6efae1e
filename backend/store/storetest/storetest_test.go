package storetest_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
)

// The factories write what their options say, through the store's own
// reads: a Series batch and its change, a Reader's bookmark and its
// change, and the filters that leave other rows alone.
func TestFactoriesWriteWhatTheOptionsSay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := dbtest.New(t)
	at := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
	storetest.Series(ctx, t, st,
		storetest.SeriesOpts{Site: "mangapill", ID: "1", CheckedAt: &at, LatestNumber: "10.5"},
		storetest.SeriesOpts{Site: "mangapill", ID: "2"},
		storetest.SeriesOpts{Site: "comix", ID: "2"})
	s, err := st.GetSeries(ctx, "mangapill", "1")
	if err != nil || s.URL != "https://mangapill.test/series/1" || s.LatestNumber != "10.5" ||
		s.LatestCheckedAt == nil || !s.LatestCheckedAt.Equal(at) {
		t.Fatalf("series 1: %+v %v", s, err)
	}
	storetest.SetSeries(ctx, t, st, storetest.SeriesSet{Site: "mangapill", Except: []string{"1"}, LatestNumber: "3", Title: "T"})
	for _, c := range []struct{ site, id, latest, title string }{
		{"mangapill", "1", "10.5", "mangapill title 1"}, {"mangapill", "2", "3", "T"}, {"comix", "2", "", "comix title 2"},
	} {
		if s, err := st.GetSeries(ctx, c.site, c.id); err != nil || s.LatestNumber != c.latest || s.Title != c.title {
			t.Errorf("%s/%s after SetSeries: %+v %v, want latest %q title %q", c.site, c.id, s, err, c.latest, c.title)
		}
	}
	ids := storetest.Readers(ctx, t, st, storetest.ReaderOpts{DiscordID: "b"}, storetest.ReaderOpts{DiscordID: "a", Name: "Ann"})
	if r, err := st.GetReaderByDiscordID(ctx, "a"); err != nil || r.ID != ids[1] || r.Name != "Ann" {
		t.Fatalf("reader a: %+v %v, ids %v", r, err, ids)
	}
	storetest.Bookmarks(ctx, t, st, storetest.BookmarkOpts{ReaderID: ids[1], Site: "mangapill", SeriesID: "2", CreatedAt: &at})
	storetest.SetBookmarks(ctx, t, st, storetest.BookmarkSet{ReaderID: ids[1], CreatedAt: storetest.At(at.Add(time.Hour))})
	marks, err := st.ListBookmarks(ctx, ids[1])
	if err != nil || len(marks) != 1 || marks[0].SeriesID != "2" || !marks[0].CreatedAt.Equal(at.Add(time.Hour)) {
		t.Fatalf("bookmarks: %+v %v", marks, err)
	}
}
