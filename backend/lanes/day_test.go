package lanes_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store/storetest"
)

// driveLane runs the Lane's passes back to back on the fake clock (the test
// goroutine is the only actor, so every sleep passes instantly) until the
// simulated span has passed.
func driveLane(t *testing.T, e *env, site string, span time.Duration) {
	t.Helper()
	ctx := context.Background()
	end := e.clock.Now().Add(span)
	e.clock.SetActors(1)
	defer e.clock.SetActors(0)
	for e.clock.Now().Before(end) {
		_, pace := e.m.RunPass(ctx, site)
		if err := e.clock.Sleep(ctx, pace); err != nil {
			t.Fatal(err)
		}
	}
}

// A Site of 20,000 Series cannot be polled in an hour even at the 1s floor:
// the Lane reads one Series a second, and behind-by grows exactly as the
// arithmetic says: t while the never-checked Series last (they are due
// since t0), then N*gap - Rest for ever after.
//
// make test runs it without the race detector (scripts/plain-tests): its
// 86,400 reads are one goroutine's, the test's, and each read's waits are
// the ones TestSimulatedDayFourThousandSeries runs under -race.
func TestSimulatedDayTwentyThousandSeries(t *testing.T) {
	t.Parallel()
	span := 24 * time.Hour
	if testing.Short() {
		span = 7 * time.Hour // the 5.6h of never-checked Series, then steady state
	}
	simulatedDay(t, 20000, span, 20)
}

// The same arithmetic on a Site of 4,000 Series over 90 minutes (the 67
// minutes of never-checked Series, then behind by 400s): the day's raced
// copy, its Lane waiting between reads on the fake clock as the big day's
// does.
func TestSimulatedDayFourThousandSeries(t *testing.T) {
	t.Parallel()
	simulatedDay(t, 4000, 90*time.Minute, 15)
}

// simulatedDay drives a Lane over n never-checked Series for span and
// checks every read one gap (the 1s floor) after the last and each of at
// least minPasses passes' behind-by against the arithmetic.
func simulatedDay(t *testing.T, n int, span time.Duration, minPasses int) {
	t.Helper()
	e := newEnv(t, nil, siteSpec{name: "big"})
	e.seed(t, "big", n, t0)
	driveLane(t, e, "big", span)

	reads := e.ad["big"].readLog()
	gap := time.Second
	for i := 1; i < len(reads); i++ {
		if d := reads[i].at.Sub(reads[i-1].at); d != gap {
			t.Fatalf("reads %d and %d are %v apart, want the 1s floor", i-1, i, d)
		}
	}
	inSpan := 0
	for _, r := range reads {
		if r.at.Before(t0.Add(span)) {
			inSpan++
		}
	}
	if want := int(span / gap); inSpan < want-1 || inSpan > want+1 {
		t.Fatalf("reads in %v = %d, want about %d", span, inSpan, want)
	}
	round := time.Duration(n) * gap
	expect := func(at time.Time) time.Duration {
		el := at.Sub(t0)
		if el < round {
			return el
		}
		return round - sites.DefaultRest
	}
	passes := e.passes(t, "big")
	if len(passes) < minPasses {
		t.Fatalf("only %d passes", len(passes))
	}
	var maxBehind time.Duration
	for _, p := range passes {
		diff := p.BehindBy - expect(p.StartedAt)
		if diff < -gap || diff > gap {
			t.Fatalf("pass at %v: behind %v, arithmetic says %v", p.StartedAt.Sub(t0), p.BehindBy, expect(p.StartedAt))
		}
		maxBehind = max(maxBehind, p.BehindBy)
		if p.Skip != "" {
			t.Fatalf("pass skipped: %+v", p)
		}
	}
	t.Logf("%d passes, %d reads, max behind %v", len(passes), len(reads), maxBehind)
}

// With 100 Series the effective gap is the Site's Gap (min(10s, 36s)) and a
// Lane that has reached steady state is never behind. Like the 20,000
// Series' day, make test runs it plain (scripts/plain-tests).
func TestSimulatedDayHundredSeriesNeverBehind(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "small", gap: 10 * time.Second})
	// Steady state: checks spread evenly over the last hour.
	rows := make([]storetest.SeriesOpts, 100)
	for i := range rows {
		rows[i] = storetest.SeriesOpts{Site: "small", ID: strconv.Itoa(i + 1), CreatedAt: storetest.At(t0.Add(-24 * time.Hour)),
			CheckedAt: storetest.At(t0.Add(-time.Hour + time.Duration(i+1)*36*time.Second))}
	}
	storetest.Series(context.Background(), t, e.st, rows...)
	driveLane(t, e, "small", 24*time.Hour)
	reads := e.ad["small"].readLog()
	// Series i is due at t0 + 36i s + k hours; the last due moment is the
	// end of the span itself, which the drive stops at: 2399 reads.
	if len(reads) != 24*100-1 {
		t.Fatalf("reads = %d, want every Series hourly (%d)", len(reads), 24*100)
	}
	for i := 1; i < len(reads); i++ {
		if d := reads[i].at.Sub(reads[i-1].at); d < 10*time.Second {
			t.Fatalf("reads %v apart, under the 10s Gap", d)
		}
	}
	for _, p := range e.passes(t, "small") {
		if p.BehindBy > 10*time.Second {
			t.Fatalf("pass at %v behind by %v", p.StartedAt.Sub(t0), p.BehindBy)
		}
	}
	// And from a cold start (all never checked) the first hour polls at Gap.
	c := newEnv(t, nil, siteSpec{name: "small", gap: 10 * time.Second})
	c.seed(t, "small", 100, t0)
	driveLane(t, c, "small", time.Hour)
	r := c.ad["small"].readLog()
	if len(r) != 100 || r[99].at.Sub(r[0].at) != 99*10*time.Second {
		t.Fatalf("cold start: %d reads spanning %v", len(r), r[len(r)-1].at.Sub(r[0].at))
	}
}
