package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

func TestMigrateTwiceIsNoOp(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	before, err := st.MigrationStatuses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Migrate(ctx); err != nil {
		t.Fatalf("second migrate: %v", err)
	}
	after, err := st.MigrationStatuses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) == 0 || len(before) != len(after) {
		t.Fatalf("statuses before %d after %d", len(before), len(after))
	}
	for _, m := range after {
		if !m.Applied {
			t.Errorf("migration %d not applied", m.Version)
		}
	}
}

func TestMigrateEmptyDatabase(t *testing.T) {
	t.Parallel()
	// A fresh database with no schema at all, migrated from nothing.
	dsn := dbtest.NewURL(t)
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Pool().Exec(ctx, `DROP SCHEMA public CASCADE; CREATE SCHEMA public`); err != nil {
		t.Fatal(err)
	}
	if err := st.Migrate(ctx); err != nil {
		t.Fatalf("migrate empty: %v", err)
	}
	for _, table := range []string{"series", "readers", "tokens", "bookmarks", "progress", "poll_lanes", "poll_passes", "poll_failures", "owner_notices", "covers"} {
		var ok bool
		if err := st.Pool().QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, table).Scan(&ok); err != nil || !ok {
			t.Errorf("table %s missing after migrate (err %v)", table, err)
		}
	}
}

func TestDeleteSeriesCascadesFailureRow(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	if _, err := st.EnsureSeries(ctx, "mangapill", "2", "https://mangapill.com/manga/2"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO poll_failures (site, series_id, outcome, failing_since) VALUES ('mangapill', '2', 'errors', $1)`, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteSeries(ctx, "mangapill", "2"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM poll_failures`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("failure rows after delete = %d, want 0", n)
	}
	if err := st.DeleteSeries(ctx, "mangapill", "2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v, want ErrNotFound", err)
	}
}

func TestEnsureSeriesKeepsExisting(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	created, err := st.EnsureSeries(ctx, "mangadex", "a", "https://x/a")
	if err != nil || !created {
		t.Fatalf("first ensure: %v %v", created, err)
	}
	created, err = st.EnsureSeries(ctx, "mangadex", "a", "https://other/a")
	if err != nil || created {
		t.Fatalf("second ensure: %v %v", created, err)
	}
	got, err := st.GetSeries(ctx, "mangadex", "a")
	if err != nil {
		t.Fatal(err)
	}
	if got.URL != "https://x/a" {
		t.Fatalf("url overwritten: %q", got.URL)
	}
	if _, err := st.GetSeries(ctx, "mangadex", "zzz"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing series: %v", err)
	}
}
