package store_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// publisher is one simulated story: when each chapter comes out, and how
// it ends (the truth the overdue cause is judged against).
type publisher struct {
	site, id string
	kind     string      // weekly, biweekly, irregular, hiatus, broken, quiet
	releases []time.Time // chapter k+1 comes out at releases[k]
	stopAt   time.Time   // hiatus: status says so from then; broken: the Site fails from then
}

// truth is the cause a story overdue should name: hiatus, the broken
// Site, else no sign anywhere (a running story late by its own past
// schedule, as an irregular one can be, is quiet too).
func (p publisher) truth() string {
	switch p.kind {
	case "hiatus":
		return store.OverdueHiatus
	case "broken":
		return store.OverdueFailing
	}
	return store.OverdueQuiet
}

// stops reports whether the story stops publishing (hiatus, broken,
// quiet): it must be named overdue once past twice its interval.
func (p publisher) stops() bool { return !p.stopAt.IsZero() }

// latestAt is the number of chapters out at now (0: none).
func (p publisher) latestAt(now time.Time) int {
	n := 0
	for _, r := range p.releases {
		if !r.After(now) {
			n++
		}
	}
	return n
}

// publishers makes the simulated stories from start over span: 16 weekly
// (± 8 h jitter), 6 biweekly, 6 irregular (3 to 10 days), 4 that go on
// hiatus (their status says so), 4 on a Site that breaks, 4 that stop
// quietly; each has had chapter 1 out before start.
func publishers(start time.Time, span time.Duration) []publisher {
	rng := rand.New(rand.NewPCG(45, 32))
	var out []publisher
	add := func(kind string, n int, gap func() time.Duration, stop time.Duration) {
		for i := range n {
			p := publisher{site: "mangadex", id: kind + strconv.Itoa(i), kind: kind}
			if kind == "broken" {
				p.site = "comix"
			}
			at := start.Add(-time.Duration(rng.IntN(7*24)) * time.Hour)
			end := start.Add(span)
			if stop > 0 {
				p.stopAt = start.Add(stop)
				end = p.stopAt
			}
			for !at.After(end) {
				p.releases = append(p.releases, at)
				at = at.Add(gap())
			}
			out = append(out, p)
		}
	}
	week := 7 * 24 * time.Hour
	jitter := func(base time.Duration) func() time.Duration {
		return func() time.Duration { return base + time.Duration(rng.IntN(17)-8)*time.Hour }
	}
	add("weekly", 16, jitter(week), 0)
	add("biweekly", 6, jitter(2*week), 0)
	add("irregular", 6, func() time.Duration { return time.Duration(3*24+rng.IntN(7*24)) * time.Hour }, 0)
	add("hiatus", 4, jitter(week), 5*week)
	add("broken", 4, jitter(week), 6*week)
	add("quiet", 4, jitter(week), 6*week)
	return out
}

// publisherRun is what one simulated run measured.
type publisherRun struct {
	requests      int             // Site reads the Lanes made
	weeklyErrors  []time.Duration // |expected window's middle - release| per weekly release
	overdueCases  int             // (story, read) pairs flagged or due to be flagged overdue
	overdueRight  int             // of which the cause named is the truth
	overdueWrongs []string
}

// runPublishers simulates the Lanes reading the publishers every Rest
// over span, as the due query orders them, through the store's own
// writes (RecordOK, UpsertFailure with status from the page); with
// timeLine, it reads the library's time line before every round, as a
// Reader's page would, and judges it.
func runPublishers(tb testing.TB, timeLine bool) publisherRun {
	ctx := context.Background()
	st := dbtest.New(tb)
	const rest = 12 * time.Hour
	start := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	span := 10 * 7 * 24 * time.Hour
	pubs := publishers(start, span)
	rd, err := st.UpsertReader(ctx, "4500", "bench", nil)
	if err != nil {
		tb.Fatal(err)
	}
	byKey := map[string]*publisher{}
	for i := range pubs {
		p := &pubs[i]
		byKey[p.site+"/"+p.id] = p
		if _, err := st.AddBookmark(ctx, rd.ID, p.site, p.id, "https://"+p.site+".example/"+p.id); err != nil {
			tb.Fatal(err)
		}
	}
	var run publisherRun
	for now := start; now.Before(start.Add(span)); now = now.Add(rest) {
		expected := map[string]*store.Expected{}
		if timeLine {
			lib, err := st.Library(ctx, rd.ID)
			if err != nil {
				tb.Fatal(err)
			}
			for _, it := range lib {
				p := byKey[it.Site+"/"+it.SeriesID]
				exp := store.Expect(it.Clock.Sightings, it.Status)
				expected[it.Site+"/"+it.SeriesID] = exp
				got := store.Overdue(exp, it.Status, it.Clock.FailingSince, now)
				// A case: named overdue, or stopped and past twice the
				// interval the story kept (what a Reader would call late).
				due := p.stops() && exp != nil && now.After(exp.Last.Add(2*exp.Interval))
				if got == "" && !due {
					continue
				}
				run.overdueCases++
				if want := p.truth(); got == want {
					run.overdueRight++
				} else {
					run.overdueWrongs = append(run.overdueWrongs, p.id+" at "+now.Format(time.DateTime)+": "+got+", want "+p.truth())
				}
			}
		}
		for _, site := range []string{"comix", "mangadex"} {
			due, err := st.DueBatch(ctx, site, rest, now, 1000)
			if err != nil {
				tb.Fatal(err)
			}
			for _, d := range due {
				run.requests++
				p := byKey[site+"/"+d.SeriesID]
				if _, _, err := st.StampChecked(ctx, site, d.SeriesID, now); err != nil {
					tb.Fatal(err)
				}
				if p.kind == "broken" && !now.Before(p.stopAt) {
					if err := st.UpsertFailure(ctx, site, d.SeriesID, "errors", now); err != nil {
						tb.Fatal(err)
					}
					continue
				}
				n := p.latestAt(now)
				if n == 0 {
					continue
				}
				status := "releasing"
				if p.kind == "hiatus" && !now.Before(p.stopAt) {
					status = "hiatus"
				}
				num := strconv.Itoa(n)
				res, err := st.RecordOK(ctx, site, d.SeriesID, store.ReadFacts{Title: p.id, Number: num,
					ChURL: "https://" + site + ".example/" + p.id + "/" + num, Status: status}, now)
				if err != nil {
					tb.Fatal(err)
				}
				if exp := expected[site+"/"+d.SeriesID]; res.Event && p.kind == "weekly" && exp != nil {
					mid := exp.From.Add(exp.To.Sub(exp.From) / 2)
					e := mid.Sub(p.releases[n-1])
					run.weeklyErrors = append(run.weeklyErrors, max(e, -e))
				}
			}
		}
	}
	return run
}

// BenchmarkPublishers: simulated publishers (weekly, biweekly, irregular,
// on hiatus, on a broken Site, stopped quietly) read every Rest (12 h)
// for ten weeks, with the time line read and judged before every round and
// without it: the weekly stories' median absolute error of the expected
// date (target ≤ 1 day), the overdue cause right in every case (at least
// 40), and the Site requests with the feature over those without (the
// time line never changes what is due: 1.000).
func BenchmarkPublishers(b *testing.B) {
	for range b.N {
		with := runPublishers(b, true)
		without := runPublishers(b, false)
		errs := slices.Clone(with.weeklyErrors)
		slices.Sort(errs)
		var mae time.Duration
		if len(errs) > 0 {
			mae = errs[len(errs)/2]
		}
		for _, w := range with.overdueWrongs[:min(len(with.overdueWrongs), 5)] {
			b.Log("overdue cause wrong:", w)
		}
		b.ReportMetric(mae.Hours()/24, "weekly_mae_days")
		b.ReportMetric(float64(len(errs)), "weekly_releases")
		b.ReportMetric(float64(with.overdueCases), "overdue_cases")
		b.ReportMetric(float64(with.overdueRight)/float64(max(with.overdueCases, 1)), "overdue_right")
		b.ReportMetric(float64(with.requests), "requests")
		b.ReportMetric(float64(without.requests), "without_requests")
	}
}
