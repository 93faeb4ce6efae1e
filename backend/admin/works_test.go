package admin_test

import (
	"context"
	"testing"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
	"mangabookmark/client"
)

// The Owner's counts of Works and links say how each link was made.
func TestWorkCounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	before, err := e.svc.WorkCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if before != (client.AdminWorks{}) {
		t.Fatalf("counts before any Work: %+v", before)
	}
	// A Work holds one Series per Site: each Work here spans two Sites.
	for _, s := range [][2]string{{"mangapill", "w1"}, {"comix", "w2"}, {"mangapill", "w3"}, {"comix", "w4"}} {
		storetest.Series(ctx, t, e.st, storetest.SeriesOpts{Site: s[0], ID: s[1], Title: "Work " + s[1]})
	}
	id := store.ExternalID{Kind: "al", Value: "77", Source: store.IDFromSite}
	if _, err := e.st.AddSeriesIDs(ctx, []store.SeriesIDs{
		{Site: "mangapill", SeriesID: "w1", IDs: []store.ExternalID{id}},
		{Site: "comix", SeriesID: "w2", IDs: []store.ExternalID{id}},
	}); err != nil {
		t.Fatal(err)
	}
	var reader int64 // a seeded Reader
	if err := e.st.Pool().QueryRow(ctx, `SELECT min(id) FROM readers`).Scan(&reader); err != nil {
		t.Fatal(err)
	}
	for _, s := range [][2]string{{"mangapill", "w3"}, {"comix", "w4"}} {
		if _, err := e.st.AddBookmark(ctx, reader, s[0], s[1], "https://"+s[0]+".example/"+s[1]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.st.LinkByHand(ctx, reader, store.SeriesRef{Site: "mangapill", SeriesID: "w3"},
		store.SeriesRef{Site: "comix", SeriesID: "w4"}); err != nil {
		t.Fatal(err)
	}
	got, err := e.svc.WorkCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := client.AdminWorks{Works: 2, Links: 2, ByID: 2, ByReaders: 0, HandLinks: 2}
	if got != want {
		t.Fatalf("counts %+v, want %+v", got, want)
	}
	// A second Reader makes the same link: two shared members by Readers.
	var second int64
	if err := e.st.Pool().QueryRow(ctx, `SELECT min(id) FROM readers WHERE id > $1`, reader).Scan(&second); err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.AddBookmark(ctx, second, "mangapill", "w3", "https://mangapill.example/w3"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.LinkByHand(ctx, second, store.SeriesRef{Site: "mangapill", SeriesID: "w3"},
		store.SeriesRef{Site: "comix", SeriesID: "w4"}); err != nil {
		t.Fatal(err)
	}
	got, err = e.svc.WorkCounts(ctx)
	if want := (client.AdminWorks{Works: 2, Links: 4, ByID: 2, ByReaders: 2}); err != nil || got != want {
		t.Fatalf("counts %+v (%v), want %+v", got, err, want)
	}
	// A Site's id on a second comix Series is not linked: the Owner sees it.
	storetest.Series(ctx, t, e.st, storetest.SeriesOpts{Site: "comix", ID: "w6", Title: "Work w6"})
	if _, err := e.st.AddSeriesIDs(ctx, []store.SeriesIDs{{Site: "comix", SeriesID: "w6", IDs: []store.ExternalID{id}}}); err != nil {
		t.Fatal(err)
	}
	got, err = e.svc.WorkCounts(ctx)
	if want := (client.AdminWorks{Works: 2, Links: 4, ByID: 2, ByReaders: 2, Refused: 1}); err != nil || got != want {
		t.Fatalf("counts %+v (%v), want %+v", got, err, want)
	}
}
