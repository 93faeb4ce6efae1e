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

// A pass counts the Chapter Events its reads recorded (the New Chapters
// the feeds show), and its row says so: a first read above a seeded
// baseline (the demo's Series: no Latest yet) records one and counts, a
// number falling back moves the Latest and counts nothing.
func TestPassCountsTheChapterEventsItsReadsRecorded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, nil, siteSpec{name: "s"})
	e.seed(t, "s", 5, t0.Add(-time.Hour))
	for _, id := range []string{"1", "2", "3"} {
		if err := e.st.SetBaseline(ctx, "s", id, "0"); err != nil {
			t.Fatal(err)
		}
	}
	events := func() int {
		t.Helper()
		var n int
		if err := e.st.Pool().QueryRow(ctx, `SELECT count(*) FROM chapter_events WHERE site = 's'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	res, _ := e.runPass(t, "s")
	if res.OK != 5 || res.New != 3 || events() != 3 {
		t.Fatalf("first pass over 3 baselines: %+v, %d Chapter Events; want new 3 of 3 events", res, events())
	}
	if p := e.passes(t, "s"); len(p) != 1 || p[0].New != 3 {
		t.Fatalf("the pass row: %+v, want new 3", p)
	}
	e.ad["s"].set("4", okResult("2", ""))   // above its first read: one event
	e.ad["s"].set("1", okResult("0.5", "")) // fell back: Latest moves, no event
	e.clock.Advance(time.Hour)
	res, _ = e.runPass(t, "s")
	if res.OK != 5 || res.New != 1 || events() != 4 {
		t.Fatalf("second pass: %+v, %d Chapter Events; want new 1 of 4 events", res, events())
	}
	if p := e.passes(t, "s"); len(p) != 2 || p[0].New != 1 {
		t.Fatalf("the second pass row: %+v, want new 1", p)
	}
}
