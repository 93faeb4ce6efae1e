package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

func TestLaneLockExclusiveAndReleasedWithConnection(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	a, b := st.NewLaneLock("comix"), st.NewLaneLock("comix")
	defer a.Release(ctx)
	defer b.Release(ctx)
	if ok, err := a.TryAcquire(ctx); err != nil || !ok {
		t.Fatalf("a: %v %v", ok, err)
	}
	if ok, err := b.TryAcquire(ctx); err != nil || ok {
		t.Fatalf("b took a held lock: %v %v", ok, err)
	}
	other := st.NewLaneLock("kagane")
	defer other.Release(ctx)
	if ok, _ := other.TryAcquire(ctx); !ok {
		t.Fatal("another Site's lock was blocked")
	}
	if err := a.Check(ctx); err != nil {
		t.Fatal(err)
	}
	// Kill every lock connection of this database except b's and other's: a's
	// session ends, so its lock goes with it.
	var pids []int32
	rows, err := st.Pool().Query(ctx, `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = ($1::bigint & 4294967295)::oid AND granted
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, store.LaneLockKey("comix"))
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p int32
		if err := rows.Scan(&p); err != nil {
			t.Fatal(err)
		}
		pids = append(pids, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(pids) != 1 {
		t.Fatalf("holders of comix lock: %v", pids)
	}
	if _, err := st.Pool().Exec(ctx, `SELECT pg_terminate_backend($1, 5000)`, pids[0]); err != nil {
		t.Fatal(err)
	}
	if err := a.Check(ctx); err == nil {
		t.Fatal("check passed on a killed connection")
	}
	if a.Held() {
		t.Fatal("a still claims the lock")
	}
	if ok, err := b.TryAcquire(ctx); err != nil || !ok {
		t.Fatalf("b after a died: %v %v", ok, err)
	}
	// a reconnects but cannot take it back.
	if ok, err := a.TryAcquire(ctx); err != nil || ok {
		t.Fatalf("a retook a held lock: %v %v", ok, err)
	}
	b.Release(ctx)
	if ok, _ := a.TryAcquire(ctx); !ok {
		t.Fatal("a could not take a released lock")
	}
}

// A holder whose heartbeat is older than the window loses its lock session
// to TakeOverStale; a fresh heartbeat, or a row naming another process (a
// new holder that has not beaten yet), keeps it.
func TestTakeOverStaleHolder(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	a, b := st.NewLaneLock("comix").WithHolder("p1"), st.NewLaneLock("comix").WithHolder("p2")
	defer a.Release(ctx)
	defer b.Release(ctx)
	if ok, err := a.TryAcquire(ctx); err != nil || !ok {
		t.Fatalf("a: %v %v", ok, err)
	}
	check := func(what string, want bool) {
		t.Helper()
		stale, err := st.StaleLaneHolder(ctx, "comix", time.Minute)
		if err != nil || stale != want {
			t.Fatalf("%s: stale = %v (%v), want %v", what, stale, err, want)
		}
	}
	check("no heartbeat row yet", false)
	if err := st.BeatLane(ctx, "comix", "p1", time.Now(), nil); err != nil {
		t.Fatal(err)
	}
	check("a fresh heartbeat", false)
	backdate := func(holder string) {
		t.Helper()
		if _, err := st.Pool().Exec(ctx, `UPDATE lane_holders SET holder = $1, beat_at = now() - interval '2 minutes'`, holder); err != nil {
			t.Fatal(err)
		}
	}
	backdate("p9")
	check("a stale row of another process", false)
	backdate("p1")
	check("the holder's stale heartbeat", true)
	if ok, err := b.TryAcquire(ctx); err != nil || ok {
		t.Fatalf("b before the takeover: %v %v", ok, err)
	}
	if ended, err := st.TakeOverStale(ctx, "comix", time.Minute); err != nil || !ended {
		t.Fatalf("take over: %v %v", ended, err)
	}
	if ok, err := b.TryAcquire(ctx); err != nil || !ok {
		t.Fatalf("b after the takeover: %v %v", ok, err)
	}
	if err := a.Check(ctx); err == nil {
		t.Fatal("the hung holder's lock still answers")
	}
}

// A DATABASE_URL may carry pgxpool's settings (docs/operations.md): the
// Lane lock's and the wake listener's connections of their own must not
// pass pool_max_conns to PostgreSQL, which refuses a parameter it does not
// know and so would leave every Lane without its lock.
func TestLaneLockWithPoolSettingsInURL(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewURL(t)
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	ctx := context.Background()
	st, err := store.Open(ctx, dsn+sep+"pool_max_conns=9&pool_min_conns=1")
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer st.Close()
	l := st.NewLaneLock("comix")
	defer l.Release(ctx)
	if ok, err := l.TryAcquire(ctx); err != nil || !ok {
		t.Fatalf("the lock with pool settings in the URL: %v %v", ok, err)
	}
}
