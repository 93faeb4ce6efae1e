package lanes_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store/storetest"
)

// waitFor polls cond every few milliseconds of wall time, failing after
// limit (the bound is a requirement, not a speed claim).
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// One hostile Site (every read hangs until the route's timeout, or every
// read is refused) does not delay another Site's Lane: on a shared
// simulated clock, the good Lane's reads stay exactly one Gap apart.
func TestHostileSiteDoesNotDelayOthers(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"hang", "refuse"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, nil, siteSpec{name: "good", gap: 10 * time.Second}, siteSpec{name: "bad", gap: 10 * time.Second})
			e.seed(t, "good", 100, t0)
			e.seed(t, "bad", 100, t0)
			bad := e.ad["bad"]
			switch mode {
			case "hang":
				bad.def = sites.Result{Outcome: sites.Errors}
				bad.onRead = func(ctx context.Context, _ string) { _ = e.clock.Sleep(ctx, 30*time.Second) }
			case "refuse":
				bad.def = sites.Result{Outcome: sites.Refused}
			}
			e.clock.SetActors(2) // the two Lane goroutines
			e.m.Start(context.Background())
			waitFor(t, 60*time.Second, "the good Lane to read its 100 Series", func() bool { return len(e.ad["good"].readLog()) >= 100 })
			e.m.Stop()
			reads := e.ad["good"].readLog()
			for i := 1; i < 100; i++ {
				if d := reads[i].at.Sub(reads[i-1].at); d > 10*time.Second {
					t.Fatalf("good Lane delayed: reads %d and %d are %v apart", i-1, i, d)
				}
			}
			if len(bad.readLog()) == 0 {
				t.Fatal("the hostile Lane never ran; the test proves nothing")
			}
		})
	}
}

// A Forced Poll via the store API, with a Wake, is read within one gap of
// being requested, both when the Lane is idle and when it is mid-pass.
func TestForcedPollReadWithinOneGap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "s", gap: 10 * time.Second})
	ctx := context.Background()
	e.seed(t, "s", 30, t0)
	a := e.ad["s"]
	e.m.Start(ctx)
	var mu sync.Mutex
	var forcedAt time.Time
	forcedRead := func(id string) (time.Time, bool) {
		for _, r := range a.readLog() {
			mu.Lock()
			fa := forcedAt
			mu.Unlock()
			if r.id == id && !fa.IsZero() && !r.at.Before(fa) {
				return r.at, true
			}
		}
		return time.Time{}, false
	}
	drive := func(what string, step func(), done func() bool) {
		waitFor(t, 60*time.Second, what, func() bool {
			if done() {
				return true
			}
			wctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			if e.clock.WaitSleepers(wctx, 1) {
				if step != nil {
					step()
				}
				e.clock.AdvanceToNext()
			}
			return false
		})
	}
	force := func(id string) {
		at, err := e.st.ForcePoll(ctx, "s", id, e.clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		forcedAt = at
		mu.Unlock()
		e.m.Wake("s")
	}
	// Mid-pass: after ten reads, force the last Series of the queue.
	forced := false
	drive("the forced read mid-pass", func() {
		if !forced && len(a.readLog()) >= 10 {
			forced = true
			force("30")
		}
	}, func() bool { _, ok := forcedRead("30"); return ok })
	at, _ := forcedRead("30")
	if lag := at.Sub(forcedAt); lag > 10*time.Second {
		t.Fatalf("forced read %v after the request, more than one gap", lag)
	}
	if n := len(a.readLog()); n > 13 {
		t.Fatalf("forced Series read after %d reads; it should have jumped the queue", n)
	}
	if f := e.failures(t, "s"); len(f) != 0 {
		t.Fatalf("failure rows %v", f)
	}
}

// An idle Lane (nothing due for most of an hour) reads a Forced Poll at
// once: the Wake alone brings the read, with no simulated time passing.
func TestForcedPollWakesIdleLane(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "s", gap: 10 * time.Second})
	ctx := context.Background()
	for i := 1; i <= 5; i++ {
		storetest.Series(ctx, t, e.st, storetest.SeriesOpts{Site: "s", ID: strconv.Itoa(i), CheckedAt: storetest.At(t0.Add(-10 * time.Minute))})
	}
	e.m.Start(ctx)
	e.clock.WaitSleepers(ctx, 1)
	if p := e.passes(t, "s"); len(p) != 1 || p[0].Due != 0 {
		t.Fatalf("the Lane should be idle: %+v", p)
	}
	forcedAt, err := e.st.ForcePoll(ctx, "s", "4", e.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	e.m.Wake("s")
	waitFor(t, 30*time.Second, "the forced read when idle", func() bool { return len(e.ad["s"].readLog()) == 1 })
	if r := e.ad["s"].readLog()[0]; r.id != "4" || !r.at.Equal(forcedAt) {
		t.Fatalf("read %+v, want Series 4 at %v", r, forcedAt)
	}
}
