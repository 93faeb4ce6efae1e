package lanes_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// evalSpy is an Evaluator that checks, when called, that the pass row it
// follows is already written.
type evalSpy struct {
	st    *store.Store
	mu    sync.Mutex
	calls []store.Pass
	errs  []error
}

func (e *evalSpy) Evaluate(ctx context.Context, site *sites.Site, now time.Time) {
	p, err := e.st.LastPass(ctx, site.Name)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err == nil && !p.FinishedAt.Equal(now) {
		err = errors.New("last pass row is not the pass that just ended")
	}
	e.calls = append(e.calls, p)
	e.errs = append(e.errs, err)
}

// Every return path of the pass writes one row and then calls the notices
// hook, and the Lane prunes rows older than 14 days itself.
func TestEveryPassRecordedThenEvaluated(t *testing.T) {
	t.Parallel()
	var spy *evalSpy
	e := newEnv(t, func(c *lanes.Config) {
		spy = &evalSpy{st: c.Store}
		c.OwnerNotices = spy
		c.Browser = nil
	}, siteSpec{name: "s"}, siteSpec{name: "b", browser: true})
	ctx := context.Background()
	old := store.Pass{Site: "s", StartedAt: t0.Add(-15 * 24 * time.Hour), FinishedAt: t0.Add(-15 * 24 * time.Hour)}
	if _, err := e.st.InsertPass(ctx, old); err != nil {
		t.Fatal(err)
	}
	recent := store.Pass{Site: "s", StartedAt: t0.Add(-13 * 24 * time.Hour), FinishedAt: t0.Add(-13 * 24 * time.Hour)}
	if _, err := e.st.InsertPass(ctx, recent); err != nil {
		t.Fatal(err)
	}
	e.seed(t, "s", 3, t0.Add(-time.Hour))
	e.seed(t, "b", 3, t0.Add(-time.Hour))
	e.ad["s"].setOutcome("2", sites.Refused)
	e.ad["s"].setOutcome("3", sites.Refused)
	var skips []string
	for _, site := range []string{"s", "s", "b"} { // ran (refusal), refusing, no_browser
		res, _ := e.runPass(t, site)
		skips = append(skips, res.Skip)
		e.clock.Advance(time.Minute)
	}
	if _, err := e.st.PauseLane(ctx, "s", e.clock.Now().Add(time.Hour), ""); err != nil {
		t.Fatal(err)
	}
	res, _ := e.runPass(t, "s")
	skips = append(skips, res.Skip)
	want := []string{"", lanes.SkipRefusing, lanes.SkipNoBrowser, lanes.SkipPaused}
	for i := range want {
		if skips[i] != want[i] {
			t.Fatalf("skips %q, want %q", skips, want)
		}
	}
	spy.mu.Lock()
	defer spy.mu.Unlock()
	if len(spy.calls) != 4 {
		t.Fatalf("evaluator called %d times for 4 passes", len(spy.calls))
	}
	for i, err := range spy.errs {
		if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
		if spy.calls[i].Skip != want[i] {
			t.Errorf("call %d saw pass with skip %q, want %q", i, spy.calls[i].Skip, want[i])
		}
	}
	ps := e.passes(t, "s")
	if len(ps) != 4 { // three passes of s and the 13-day-old row; the 15-day-old one pruned
		t.Fatalf("pass rows of s: %d, want 4", len(ps))
	}
	if last := ps[len(ps)-1]; !last.StartedAt.Equal(recent.StartedAt) {
		t.Fatalf("oldest kept row %v, want the 13-day-old one", last.StartedAt)
	}
}
