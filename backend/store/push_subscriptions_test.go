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

// The cap on a Reader's push subscriptions holds under concurrent posts
// (issue 33: it was counted, then inserted, with nothing between): a save
// waits for the Reader's row while another save of theirs is in flight,
// so it counts that one too. Here the test's own transaction is the other
// save, holding the lock with the Reader's last free place taken.
func TestPushSubscriptionCapHoldsAgainstAConcurrentSave(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := dbtest.New(t)
	r, err := st.UpsertReader(ctx, "900000000000000010", "Bob", nil)
	if err != nil {
		t.Fatal(err)
	}
	const max = 3
	sub := func(i int) store.PushSubscription {
		return store.PushSubscription{ReaderID: r.ID, Endpoint: fmt.Sprintf("https://push.example/%d", i), P256dh: "k", Auth: "a"}
	}
	for i := 0; i < max-1; i++ {
		if err := st.SavePushSubscription(ctx, sub(i), max); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := st.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `SELECT 1 FROM readers WHERE id = $1 FOR UPDATE`, r.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO push_subscriptions (reader_id, endpoint, p256dh, auth) VALUES ($1, 'https://push.example/last', 'k', 'a')`, r.ID); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- st.SavePushSubscription(ctx, sub(99), max) }()
	// Wait until the save either waits on a lock or has finished.
	var early error
	finished := false
	for waiting := false; !waiting && !finished; {
		select {
		case early = <-done:
			finished = true
		case <-time.After(10 * time.Millisecond):
			if err := st.Pool().QueryRow(ctx, `SELECT count(*) > 0 FROM pg_stat_activity
				WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if !finished {
		early = <-done
	}
	if !errors.Is(early, store.ErrPushLimit) {
		t.Errorf("the save beside a concurrent one that took the last place: %v, want ErrPushLimit", early)
	}
	if n, err := st.CountPushSubscriptions(ctx, r.ID); err != nil || n != max {
		t.Fatalf("%d subscriptions (%v), want the cap %d", n, err, max)
	}
}
