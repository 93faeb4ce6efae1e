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
	for _, id := range []string{"w1", "w2", "w3", "w4"} {
		storetest.Series(ctx, t, e.st, storetest.SeriesOpts{Site: "mangapill", ID: id, Title: "Work " + id})
	}
	id := store.ExternalID{Kind: "al", Value: "77", Source: store.IDFromSite}
	if _, err := e.st.AddSeriesIDs(ctx, []store.SeriesIDs{
		{Site: "mangapill", SeriesID: "w1", IDs: []store.ExternalID{id}},
		{Site: "mangapill", SeriesID: "w2", IDs: []store.ExternalID{id}},
	}); err != nil {
		t.Fatal(err)
	}
	var reader int64 // a seeded Reader
	if err := e.st.Pool().QueryRow(ctx, `SELECT min(id) FROM readers`).Scan(&reader); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"w3", "w4"} {
		if _, err := e.st.AddBookmark(ctx, reader, "mangapill", s, "https://mangapill.example/"+s); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.st.LinkByHand(ctx, reader, store.SeriesRef{Site: "mangapill", SeriesID: "w3"},
		store.SeriesRef{Site: "mangapill", SeriesID: "w4"}); err != nil {
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
		store.SeriesRef{Site: "mangapill", SeriesID: "w4"}); err != nil {
		t.Fatal(err)
	}
	got, err = e.svc.WorkCounts(ctx)
	if want := (client.AdminWorks{Works: 2, Links: 4, ByID: 2, ByReaders: 2}); err != nil || got != want {
		t.Fatalf("counts %+v (%v), want %+v", got, err, want)
	}
}
