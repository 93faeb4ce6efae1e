package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

func TestCoversPutGet(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	if _, err := st.GetCover(ctx, "a", "1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing cover: %v", err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// A Series that does not exist stores nothing and is no error.
	if err := st.PutCover(ctx, "a", "1", store.Cover{ContentType: "image/png", Body: []byte{1}, FetchedAt: now, SourceURL: "u"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetCover(ctx, "a", "1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("cover of unknown series stored: %v", err)
	}
	if _, err := st.EnsureSeries(ctx, "a", "1", "u"); err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]byte{{1, 2}, {3}} {
		if err := st.PutCover(ctx, "a", "1", store.Cover{ContentType: "image/png", Body: b, FetchedAt: now, SourceURL: "u2"}); err != nil {
			t.Fatal(err)
		}
	}
	c, err := st.GetCover(ctx, "a", "1")
	if err != nil || string(c.Body) != "\x03" || c.SourceURL != "u2" || c.ContentType != "image/png" || !c.FetchedAt.Equal(now) {
		t.Fatalf("get: %+v %v", c, err)
	}
}
