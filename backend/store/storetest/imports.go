package storetest

import (
	"context"
	"testing"

	"mangabookmark/backend/store"
)

// ImportCopy names an import job to copy and how many times.
type ImportCopy struct {
	ID    int64 // the job copied; 0: the newest job
	Times int   // default 1
}

// CopyImport copies an import job as the store kept it (its Reader, kind,
// state, counts, unsupported lines and times; not its entries) o.Times
// times in one statement, for a Reader with many imports of one shape,
// failing the test on error or when there is no such job.
func CopyImport(ctx context.Context, tb testing.TB, st *store.Store, o ImportCopy) {
	tb.Helper()
	if o.Times == 0 {
		o.Times = 1
	}
	tag, err := st.Pool().Exec(ctx, `INSERT INTO import_jobs (reader_id, kind, state, total, unsupported, unsupported_dropped, created_at, finished_at)
		SELECT reader_id, kind, state, total, unsupported, unsupported_dropped, created_at, finished_at
		FROM import_jobs, generate_series(1, $2::int)
		WHERE id = coalesce(nullif($1::bigint, 0), (SELECT max(id) FROM import_jobs))`, o.ID, o.Times)
	if err != nil {
		tb.Fatalf("storetest: copy import %d: %v", o.ID, err)
	}
	if tag.RowsAffected() == 0 {
		tb.Fatalf("storetest: copy import %d: no such job", o.ID)
	}
}
