package lanes_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/ownernotice"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// A holder that is alive but hung keeps its lock connection, and so the
// lock, forever. Another process sees its heartbeat stale, judges the stall
// (the silence is over the owner window, so the notice fires), ends the
// hung holder's lock session and takes the Lane; its first pass clears the
// episode.
func TestHungHolderLosesTheLaneAndTheStallFires(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var sent []string
	record := func(_ context.Context, n ownernotice.Notice) error {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, n.Kind+"/"+n.Site)
		return nil
	}
	e := newEnv(t, func(c *lanes.Config) {
		n, err := lanes.NewNotices(lanes.NoticesConfig{Store: c.Store, Sites: c.Sites.All(), Send: record})
		if err != nil {
			t.Fatal(err)
		}
		c.OwnerNotices = n
		c.BeatEvery, c.TakeoverAfter = 100*time.Millisecond, time.Second
	}, siteSpec{name: "s"})
	ctx := context.Background()
	silentSince := t0.Add(-13 * time.Hour)
	e.seedChecked(t, "s", 3, silentSince.Add(-2*time.Hour))
	storetest.Pass(ctx, t, e.st, store.Pass{Site: "s", StartedAt: silentSince, Due: 3, Checked: 3})
	hung := e.st.NewLaneLock("s").WithHolder("hung")
	defer hung.Release(ctx)
	if ok, err := hung.TryAcquire(ctx); err != nil || !ok {
		t.Fatalf("the hung holder's lock: %v %v", ok, err)
	}
	if err := e.st.BeatLane(ctx, "s", "hung", silentSince, nil); err != nil {
		t.Fatal(err)
	}
	storetest.SetHolder(ctx, t, e.st, storetest.HolderSet{Site: "s", BeatAgo: time.Hour})
	e.clock.SetActors(1)
	e.m.Start(ctx)
	waitFor(t, 30*time.Second, "the Lane taken from the hung holder", func() bool { return len(e.ad["s"].readLog()) >= 3 })
	mu.Lock()
	got := slices.Clone(sent)
	mu.Unlock()
	if !slices.Contains(got, "stall/s") {
		t.Fatalf("sent %v, want the stall notice", got)
	}
	if err := hung.Check(ctx); err == nil {
		t.Fatal("the hung holder still holds its lock")
	}
	waitFor(t, 30*time.Second, "the new holder's pass to close the episode", func() bool {
		rows, err := e.st.ListNotices(ctx)
		return err == nil && len(rows) == 0
	})
}
