package storetest

import (
	"context"
	"testing"

	"mangabookmark/backend/store"
)

// TrackerAccountSet names a Reader's tracker account and what to change
// on it; a zero field is left as it is.
type TrackerAccountSet struct {
	ReaderID int64
	Service  string // default anilist
	Username string
}

// SetTrackerAccount changes a tracker account behind the product's back
// (a user renamed on the tracker after the product checked the name:
// none of PutTrackerSettings' resets of state, failures or next pull),
// failing the test on error or when the Reader has no such account.
func SetTrackerAccount(ctx context.Context, tb testing.TB, st *store.Store, o TrackerAccountSet) {
	tb.Helper()
	if o.Service == "" {
		o.Service = "anilist"
	}
	tag, err := st.Pool().Exec(ctx, `UPDATE tracker_accounts SET username = coalesce(nullif($3, ''), username)
		WHERE reader_id = $1 AND service = $2`, o.ReaderID, o.Service, o.Username)
	if err != nil {
		tb.Fatalf("storetest: set tracker account %d %s: %v", o.ReaderID, o.Service, err)
	}
	if tag.RowsAffected() == 0 {
		tb.Fatalf("storetest: set tracker account %d %s: no such account", o.ReaderID, o.Service)
	}
}
