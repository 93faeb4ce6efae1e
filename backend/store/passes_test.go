package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

func TestPassesInsertListPrune(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	if _, err := st.LastPass(ctx, "mangadex"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("last pass of nothing: %v", err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 3; i++ {
		p := store.Pass{Site: "mangadex", StartedAt: t0.Add(time.Duration(i) * 24 * time.Hour),
			FinishedAt: t0.Add(time.Duration(i)*24*time.Hour + time.Minute), Due: i, Checked: i, OK: 1, Skip: "",
			BehindBy: 1500 * time.Millisecond}
		if _, err := st.InsertPass(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	last, err := st.LastPass(ctx, "mangadex")
	if err != nil || last.Due != 2 || last.BehindBy != 1500*time.Millisecond {
		t.Fatalf("last: %+v %v", last, err)
	}
	n, err := st.PrunePasses(ctx, "mangadex", t0.Add(36*time.Hour))
	if err != nil || n != 2 {
		t.Fatalf("prune: %d %v", n, err)
	}
	list, err := st.ListPasses(ctx, "mangadex", 10)
	if err != nil || len(list) != 1 {
		t.Fatalf("list: %v %v", list, err)
	}
}
