package trackersync_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist"
	"mangabookmark/backend/trackersync"
)

// PullNow wakes the running worker: with a look only every hour, the
// Reader's Progress moves at once.
func TestPullNowWakesTheWorker(t *testing.T) {
	w := newWorld(t)
	r := w.reader("ann")
	w.series("mangadex", "s", "", "601")
	w.bookmark(r, "mangadex", "s", "2")
	w.al.AddUser("ann", entry("601", 2, trackers.StatusCurrent))
	sealer, err := trackers.NewSealer(tokenKey)
	if err != nil {
		t.Fatal(err)
	}
	client, err := anilist.New(anilist.Config{Origin: w.origin, Limiter: w.limit})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := trackersync.New(trackersync.Config{Store: w.st, Tracker: client, Sealer: sealer, Now: w.clock.Now, Tick: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	w.setUp(svc, r, "ann", "")
	ctx, cancel := context.WithCancel(w.ctx)
	defer cancel()
	svc.Start(ctx)
	defer svc.Stop()
	// The first look pulls (due at once); wait for it, then read on the
	// phone and ask for a pull.
	waitFor(t, func() bool { a := w.account(r); return a.LastPullAt != nil })
	w.al.SetEntry("ann", entry("601", 9, trackers.StatusCurrent))
	if err := svc.PullNow(w.ctx, r, anilist.Name); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { n, _ := w.progress(r, "mangadex", "s"); return n == "9" })
}

// waitFor waits for cond, checking as the database answers, for at most
// 20 s of wall time (a bound on a hang, not a timing assertion).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		runtime.Gosched() // each check is a database round trip; nothing spins hot
	}
}
