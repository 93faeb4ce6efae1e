package lanes_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// A Forced Poll opens the wake gate: the Owner asked for that read. The
// gate still holds the routine trickle beside it once the force is read.
func TestForcedPollOpensTheWakeGate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "b", browser: true})
	ctx := context.Background()
	now := e.clock.Now()
	e.seedChecked(t, "b", 3, now.Add(-10*time.Minute))
	e.clock.Advance(sites.DefaultRest)
	if res, _ := e.runPass(t, "b"); res.Skip != lanes.SkipAsleep {
		t.Fatalf("a routine trickle should sleep: %+v", res)
	}
	if _, err := e.st.ForcePoll(ctx, "b", "2", e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	res, _ := e.runPass(t, "b")
	if res.Skip != "" || res.Checked != 3 {
		t.Fatalf("the forced pass should read what is due: %+v", res)
	}
	if got := e.ad["b"].readIDs(); len(got) != 3 || got[0] != "2" {
		t.Fatalf("reads %v, want the forced Series first", got)
	}
}

// A new bookmark (a Series never checked) opens the wake gate: a Reader
// waits for its first read.
func TestNewBookmarkOpensTheWakeGate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "b", browser: true})
	e.seed(t, "b", 1, e.clock.Now())
	if res, _ := e.runPass(t, "b"); res.Skip != "" || res.Checked != 1 {
		t.Fatalf("a new bookmark should be read at once: %+v", res)
	}
}

// PassSpan must not strand the remainder: 33 due browser Series at a 10s
// gap are 30 reads in the first pass and 3 in the next, which runs without
// the wake gate (Chrome was just used) instead of 9 minutes later.
func TestSplitPassDoesNotStrandTheRemainder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "b", browser: true, gap: 10 * time.Second})
	e.seedChecked(t, "b", 33, e.clock.Now().Add(-sites.DefaultRest-time.Minute))
	first, pace := e.runPass(t, "b")
	if first.Skip != "" || first.Checked != 30 || pace != 0 {
		t.Fatalf("first pass: %+v pace %v", first, pace)
	}
	start := e.clock.Now()
	second, _ := e.runPass(t, "b")
	if second.Skip != "" || second.Checked != 3 {
		t.Fatalf("the remainder waited behind the wake gate: %+v", second)
	}
	if d := e.clock.Now().Sub(start); d > time.Minute {
		t.Fatalf("the remainder took %v of Lane time, want three gaps", d)
	}
	// Then the Lane is idle and a later trickle sleeps again.
	if third, _ := e.runPass(t, "b"); third.Skip != "" || third.Due != 0 {
		t.Fatalf("third pass: %+v", third)
	}
}

// A bookmark added while the Lane sleeps a full Rest wakes it through the
// database (no Wake call: any write path does it), and its first read
// happens with no simulated time passing, well within one gap.
func TestNewBookmarkWakesIdleLane(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "s", gap: 10 * time.Second})
	ctx := context.Background()
	e.seedChecked(t, "s", 2, e.clock.Now().Add(-10*time.Minute))
	e.m.Start(ctx)
	<-e.m.Listening()
	e.clock.WaitSleepers(ctx, 1)
	if p := e.passes(t, "s"); len(p) != 1 || p[0].Due != 0 {
		t.Fatalf("the Lane should be idle: %+v", p)
	}
	added := e.clock.Now()
	storetest.Series(ctx, t, e.st, storetest.SeriesOpts{Site: "s", ID: "new"})
	waitFor(t, 30*time.Second, "the new bookmark's first read", func() bool { return len(e.ad["s"].readLog()) == 1 })
	if r := e.ad["s"].readLog()[0]; r.id != "new" || r.at.Sub(added) > 10*time.Second {
		t.Fatalf("read %+v, want Series new within one gap of %v", r, added)
	}
}

// While a pass runs, the Lane's heartbeat carries it: due at the start and
// the reads so far.
func TestHeartbeatCarriesThePassInFlight(t *testing.T) {
	t.Parallel()
	var e *env
	var seen store.Holder
	e = newEnv(t, func(c *lanes.Config) { c.BeatEvery = 10 * time.Millisecond; c.TakeoverAfter = time.Second },
		siteSpec{name: "s", gap: time.Second})
	ctx := context.Background()
	e.seed(t, "s", 5, e.clock.Now())
	e.ad["s"].onRead = func(_ context.Context, id string) {
		if id != "4" {
			return
		}
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			hs, err := e.st.LaneHolders(ctx)
			if err == nil && hs["s"].Pass != nil && hs["s"].Pass.Checked == 3 {
				seen = hs["s"]
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	e.clock.SetActors(1)
	e.m.Start(ctx)
	waitFor(t, 30*time.Second, "five reads", func() bool { return len(e.ad["s"].readLog()) >= 5 })
	if seen.Pass == nil || seen.Pass.Due != 5 || !seen.Pass.StartedAt.Equal(t0) || seen.SeenAt.Before(t0) {
		t.Fatalf("heartbeat during the fourth read: %+v pass %+v", seen, seen.Pass)
	}
}
