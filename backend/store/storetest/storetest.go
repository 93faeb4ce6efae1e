// Package storetest seeds rows for tests outside store, so a schema change
// is made here once rather than in every package's test SQL (river's
// testfactory is the model): Series(ctx, t, st, opts) and Failure(ctx, t,
// st, opts), each with defaults for what the test does not name.
package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// SeriesOpts describe a Series row; Site and ID are required.
type SeriesOpts struct {
	Site, ID  string
	URL       string     // default https://{site}.test/series/{id}
	Title     string     // default "{site} title {id}"
	CheckedAt *time.Time // latest_checked_at; nil: never checked
	CreatedAt *time.Time // nil: the database's now()
}

// Series inserts a Series, failing the test on error.
func Series(ctx context.Context, tb testing.TB, st *store.Store, o SeriesOpts) {
	tb.Helper()
	if o.URL == "" {
		o.URL = fmt.Sprintf("https://%s.test/series/%s", o.Site, o.ID)
	}
	if o.Title == "" {
		o.Title = fmt.Sprintf("%s title %s", o.Site, o.ID)
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO series (site, series_id, url, title, latest_checked_at, created_at)
		VALUES ($1, $2, $3, $4, $5, coalesce($6, now()))`, o.Site, o.ID, o.URL, o.Title, o.CheckedAt, o.CreatedAt); err != nil {
		tb.Fatalf("storetest: series %s/%s: %v", o.Site, o.ID, err)
	}
}

// FailureOpts describe a failing Series (a poll_failures row); the Series
// must exist.
type FailureOpts struct {
	Site, SeriesID string
	Outcome        string // not_found, no_chapter, unfetchable or errors; default errors
	Since          time.Time
}

// Failure records a Series as failing since o.Since, failing the test on
// error.
func Failure(ctx context.Context, tb testing.TB, st *store.Store, o FailureOpts) {
	tb.Helper()
	if o.Outcome == "" {
		o.Outcome = "errors"
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO poll_failures (site, series_id, outcome, failing_since)
		VALUES ($1, $2, $3, $4)`, o.Site, o.SeriesID, o.Outcome, o.Since); err != nil {
		tb.Fatalf("storetest: failure %s/%s: %v", o.Site, o.SeriesID, err)
	}
}
