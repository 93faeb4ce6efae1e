package lanes_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store/storetest"
)

// Each outcome, on each route, writes exactly what the outcome table says
// to poll_failures.
func TestOutcomesWriteFailureRowsPerRoute(t *testing.T) {
	t.Parallel()
	for _, browser := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "browser"}[browser]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, nil, siteSpec{name: "s", browser: browser})
			ctx := context.Background()
			a := e.ad["s"]
			// Series 1..7 read in id order (created one microsecond apart).
			e.seed(t, "s", 7, t0.Add(-time.Hour))
			words := map[string]sites.Outcome{"1": sites.NotFound, "2": sites.NoChapter, "3": sites.Unfetchable,
				"4": sites.Errors, "5": sites.OK, "6": sites.Refused, "7": sites.Unreachable}
			for id, o := range words {
				if o != sites.OK {
					a.setOutcome(id, o)
				}
			}
			// 5 (ok), 6 (refused) and 7 (unreachable) start with a failure row.
			for _, id := range []string{"5", "6", "7"} {
				if err := e.st.UpsertFailure(ctx, "s", id, "errors", t0.Add(-48*time.Hour)); err != nil {
					t.Fatal(err)
				}
			}
			before := e.failures(t, "s")
			res, _ := e.runPass(t, "s")
			if res.Checked != 7 || res.NotFound != 1 || res.NoChapter != 1 || res.Unfetchable != 1 || res.Errors != 1 ||
				res.OK != 1 || res.Refused != 1 || res.Unreachable != 1 || res.Skip != "" || res.Due != 7 {
				t.Fatalf("pass %+v", res)
			}
			want := e.sites["s"].Browser
			for _, r := range a.readLog() {
				if (r.route == e.browser) != want || (r.route == e.plain) == want {
					t.Fatalf("read %s went through the wrong route", r.id)
				}
			}
			after := e.failures(t, "s")
			for id, o := range words {
				f, ok := after[id]
				switch {
				case o.WritesFailure():
					if !ok || f.outcome != string(o) {
						t.Errorf("%s (%s): row %+v %v", id, o, f, ok)
					}
				case o == sites.OK:
					if ok {
						t.Errorf("ok read left the failure row %+v", f)
					}
				default: // refused, unreachable: untouched, not rewritten
					if !ok || f != before[id] {
						t.Errorf("%s (%s) touched the row: %+v -> %+v", id, o, before[id], f)
					}
				}
			}
			// Next read: 1 changes word, 2 keeps it, 3 recovers.
			e.clock.Advance(2 * time.Hour)
			a.setOutcome("1", sites.Errors)
			a.set("3", okResult("4", ""))
			a.set("6", okResult("4", ""))
			a.set("7", okResult("4", ""))
			storetest.SetSeries(ctx, t, e.st, storetest.SeriesSet{Site: "s", Except: []string{"1", "2", "3"}, CheckedAt: storetest.At(e.clock.Now())})
			if res, _ := e.runPass(t, "s"); res.Checked != 3 {
				t.Fatalf("second pass %+v", res)
			}
			again := e.failures(t, "s")
			if f := again["1"]; f.outcome != "errors" || !f.since.Equal(after["1"].since) || f.xmin == after["1"].xmin {
				t.Errorf("changed word: %+v (was %+v)", f, after["1"])
			}
			if f := again["2"]; f != after["2"] {
				t.Errorf("unchanged word rewrote the row: %+v -> %+v", after["2"], f)
			}
			if _, ok := again["3"]; ok {
				t.Error("recovered Series kept its failure row")
			}
		})
	}
}

// A read cut short by two refusals leaves the untried Series due, and the
// backoff gates the Lane for 15 minutes.
func TestRefusalBackoffLeavesRestUnstamped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "s"})
	ctx := context.Background()
	e.seed(t, "s", 6, t0.Add(-time.Hour))
	a := e.ad["s"]
	a.setOutcome("2", sites.Refused)
	a.setOutcome("3", sites.Refused)
	res, pace := e.runPass(t, "s")
	if res.Refused != 2 || res.Checked != 3 || res.OK != 1 || pace != lanes.RefuseBackoff {
		t.Fatalf("pass %+v pace %v", res, pace)
	}
	if n := e.unchecked(t, "s"); n != 3 {
		t.Fatalf("unchecked after refusal = %d, want 3", n)
	}
	lr, err := e.st.GetLane(ctx, "s")
	if err != nil || lr.RefuseUntil == nil || !lr.RefuseUntil.Equal(e.clock.Now().Add(lanes.RefuseBackoff)) {
		t.Fatalf("refuse_until %+v %v", lr.RefuseUntil, err)
	}
	if len(e.failures(t, "s")) != 0 {
		t.Fatal("refusals wrote failure rows")
	}
	e.clock.Advance(14 * time.Minute)
	res, pace = e.runPass(t, "s")
	if res.Skip != lanes.SkipRefusing || res.Due != 3 || pace != time.Minute {
		t.Fatalf("during backoff: %+v pace %v", res, pace)
	}
	e.clock.Advance(time.Minute)
	a.set("2", okResult("1", ""))
	a.set("3", okResult("1", ""))
	res, _ = e.runPass(t, "s")
	if res.Skip != "" || res.Checked != 3 || e.unchecked(t, "s") != 0 {
		t.Fatalf("after backoff: %+v", res)
	}
	if got := len(e.passes(t, "s")); got != 3 {
		t.Fatalf("pass rows = %d, want one per pass (3)", got)
	}
}

// A pass cut by cancellation leaves the untried Series unstamped.
func TestCancelledPassLeavesRestDue(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "s"})
	e.seed(t, "s", 5, t0.Add(-time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	e.ad["s"].onRead = func(_ context.Context, id string) {
		if id == "2" {
			cancel()
		}
	}
	e.clock.SetActors(1)
	res, _ := e.m.RunPass(ctx, "s")
	if res.Skip != lanes.SkipStopped || res.Checked != 1 {
		t.Fatalf("pass %+v", res)
	}
	if n := e.unchecked(t, "s"); n != 3 {
		t.Fatalf("unchecked = %d, want 3 (4 and 5 never tried, 3 not reached)", n)
	}
	if len(e.failures(t, "s")) != 0 {
		t.Fatal("a cancelled read wrote a failure row")
	}
	if got := len(e.passes(t, "s")); got != 1 {
		t.Fatalf("pass rows = %d", got)
	}
}
