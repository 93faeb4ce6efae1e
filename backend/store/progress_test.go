package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

func TestApplyReadsMovesOnlyForward(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	r, err := st.UpsertReader(ctx, "2", "A", nil)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	rd := func(n string, h int) store.Read {
		return store.Read{ReaderID: r.ID, Site: "mangapill", SeriesID: "2", SeriesURL: "https://mangapill.com/manga/2",
			Number: n, URL: "u" + n, ReadAt: at.Add(time.Duration(h) * time.Hour)}
	}
	steps := []struct {
		reads []store.Read
		moved string
		want  string
	}{
		{[]store.Read{rd("9", 0)}, "[true]", "9"},
		{[]store.Read{rd("9", 0)}, "[false]", "9"},                       // replay
		{[]store.Read{rd("10", 1), rd("9.5", 2)}, "[true false]", "10"},  // older later
		{[]store.Read{rd("100", 3), rd("99", 4)}, "[true false]", "100"}, // numeric, not text
		{[]store.Read{rd("100.25", 0), rd("100.3", 0)}, "[true true]", "100.3"},
	}
	for i, s := range steps {
		res, err := st.ApplyReads(ctx, s.reads)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		var moved []bool
		for _, r := range res {
			if r.Refused != nil {
				t.Fatalf("step %d: refused: %v", i, r.Refused)
			}
			moved = append(moved, r.Moved)
		}
		if fmt.Sprint(moved) != s.moved {
			t.Errorf("step %d: moved %v, want %s", i, moved, s.moved)
		}
		p, err := st.GetProgress(ctx, r.ID, "mangapill", "2")
		if err != nil || p.Number != s.want {
			t.Errorf("step %d: progress %+v %v, want %s", i, p, err, s.want)
		}
	}
	// The read created the Series and the bookmark.
	if _, err := st.GetBookmark(ctx, r.ID, "mangapill", "2"); err != nil {
		t.Fatalf("bookmark: %v", err)
	}
}

func TestAddAndRemoveBookmark(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	a, _ := st.UpsertReader(ctx, "2", "A", nil)
	b, _ := st.UpsertReader(ctx, "3", "B", nil)
	for _, r := range []int64{a.ID, b.ID} {
		created, err := st.AddBookmark(ctx, r, "mangapill", "7", "https://mangapill.com/manga/7")
		if err != nil || !created {
			t.Fatalf("add: %v %v", created, err)
		}
	}
	if created, err := st.AddBookmark(ctx, a.ID, "mangapill", "7", "https://x"); err != nil || created {
		t.Fatalf("re-add: %v %v", created, err)
	}
	if err := st.RemoveBookmark(ctx, a.ID, "mangapill", "7"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetSeries(ctx, "mangapill", "7"); err != nil {
		t.Fatalf("Series with a bookmark left was removed: %v", err)
	}
	if err := st.RemoveBookmark(ctx, b.ID, "mangapill", "7"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetSeries(ctx, "mangapill", "7"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("orphan Series kept: %v", err)
	}
	if err := st.RemoveBookmark(ctx, b.ID, "mangapill", "7"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("absent bookmark: %v", err)
	}
}
