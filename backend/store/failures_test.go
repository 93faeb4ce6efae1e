package store_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

func failureRow(t *testing.T, st *store.Store, site, id string) (outcome string, since time.Time, xmin uint32, ok bool) {
	t.Helper()
	err := st.Pool().QueryRow(context.Background(), `SELECT outcome, failing_since, xmin::text::bigint
		FROM poll_failures WHERE site = $1 AND series_id = $2`, site, id).Scan(&outcome, &since, &xmin)
	if err != nil {
		return "", time.Time{}, 0, false
	}
	return outcome, since, xmin, true
}

func TestUpsertFailureKeepsSinceAndSkipsUnchanged(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	if _, err := st.EnsureSeries(ctx, "mangapill", "1", "https://x/1"); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := st.UpsertFailure(ctx, "mangapill", "1", "errors", t0); err != nil {
		t.Fatal(err)
	}
	w, since, x1, ok := failureRow(t, st, "mangapill", "1")
	if !ok || w != "errors" || !since.Equal(t0) {
		t.Fatalf("first upsert: %v %q %v", ok, w, since)
	}
	// Same word later: nothing written (xmin unchanged).
	if err := st.UpsertFailure(ctx, "mangapill", "1", "errors", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	_, since, x2, _ := failureRow(t, st, "mangapill", "1")
	if x2 != x1 || !since.Equal(t0) {
		t.Fatalf("unchanged word rewrote the row: xmin %d -> %d, since %v", x1, x2, since)
	}
	// New word: row rewritten, failing_since kept.
	if err := st.UpsertFailure(ctx, "mangapill", "1", "not_found", t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	w, since, x3, _ := failureRow(t, st, "mangapill", "1")
	if w != "not_found" || !since.Equal(t0) || x3 == x2 {
		t.Fatalf("changed word: %q since %v xmin %d (was %d)", w, since, x3, x2)
	}
	if err := st.ClearFailure(ctx, "mangapill", "1"); err != nil {
		t.Fatal(err)
	}
	if _, _, _, ok := failureRow(t, st, "mangapill", "1"); ok {
		t.Fatal("row survived clear")
	}
	if err := st.ClearFailure(ctx, "mangapill", "1"); err != nil {
		t.Fatalf("clearing a missing row: %v", err)
	}
	if err := st.UpsertFailure(ctx, "mangapill", "1", "refused", t0); err == nil {
		t.Fatal("refused is not a failure word; the CHECK should reject it")
	}
}

func TestListFailingFilters(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, c := range []struct{ site, id, word string }{{"a", "1", "errors"}, {"a", "2", "no_chapter"}, {"b", "1", "errors"}} {
		if _, err := st.EnsureSeries(ctx, c.site, c.id, "u"); err != nil {
			t.Fatal(err)
		}
		if err := st.UpsertFailure(ctx, c.site, c.id, c.word, t0.Add(time.Duration(-i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	all, _, err := st.AdminFailingList(ctx, store.AdminFailingFilter{Limit: 100})
	if err != nil || len(all) != 3 || all[0].Site != "b" {
		t.Fatalf("all: %v %+v", err, all)
	}
	one, _, err := st.AdminFailingList(ctx, store.AdminFailingFilter{Site: "a", Outcome: "errors", Limit: 100})
	if err != nil || len(one) != 1 || one[0].SeriesID != "1" {
		t.Fatalf("filtered: %v %+v", err, one)
	}
}
