package trackersync_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist"
	"mangabookmark/backend/trackersync"
)

// Issue 30's measure: 10 Readers × 500 tracked Series, a simulated day.
const (
	benchReaders = 10
	benchSeries  = 500
	benchTick    = 15 * time.Second // the workers' look (DefaultTick)
)

// benchSpan is the simulated span: a day, or MB_TRACKER_BENCH_SPAN (such
// as 2h) for a quicker look; the reads of a day are spread over it.
func benchSpan(b *testing.B) time.Duration {
	if v := os.Getenv("MB_TRACKER_BENCH_SPAN"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Hour {
			b.Fatalf("MB_TRACKER_BENCH_SPAN=%q: want a duration of at least 1h", v)
		}
		return d
	}
	return 24 * time.Hour
}

// minuteCounter counts the tracker requests started in each minute of the
// fake clock (the Recorder sees each attempt).
type minuteCounter struct {
	mu    sync.Mutex
	start time.Time
	now   func() time.Time
	per   map[int]int
}

func (m *minuteCounter) Request(_, _, _ string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.per[int(m.now().Sub(m.start)/time.Minute)]++
}

// lowerWatch is the tracker as trackersync sees it, counting the writes
// that would lower the stand-in's count.
type lowerWatch struct {
	trackers.Service
	al interface {
		Entry(string, string) (trackers.Entry, bool)
	}
	users   map[string]string // token to user
	mu      sync.Mutex
	saves   int
	lowered int
}

func (l *lowerWatch) Save(ctx context.Context, token, mediaID string, w trackers.Write) (trackers.Remote, error) {
	l.mu.Lock()
	l.saves++
	if e, ok := l.al.Entry(l.users[token], mediaID); ok && w.Progress < e.Progress {
		l.lowered++
	}
	l.mu.Unlock()
	return l.Service.Save(ctx, token, mediaID, w)
}

// phoneRead is a read on the Reader's phone: AniList's count moved at at.
type phoneRead struct {
	reader int64
	series int
	to     int
	at     time.Time
}

// BenchmarkTrackerDay runs a day of 10 Readers, each with 500 Series
// linked to AniList, on a fake clock against the AniList stand-in: reads
// here in binges (the push's work) and reads on the phone (the pull's).
// It reports AniList requests a minute (peak and mean; target ≤ 25),
// AniList writes per read here (target ≤ 0.2), pushes that would lower
// AniList's count (target 0), and a phone read's latency to our Progress
// (max and mean; target ≤ one pull interval, 15 min). Its last row is
// the review's T5-3: a victim's "pull now" while another Reader has 200
// pushes queued, in AniList requests from the ask to her list (and as a
// ratio to the same pull with nothing queued) and in time on the fake
// clock (and as a ratio to the time the whole queue takes, which is what
// she waited when a pass drained the pushes before any pull).
func BenchmarkTrackerDay(b *testing.B) {
	for range b.N {
		benchDayOnce(b)
		benchVictimPull(b)
	}
}

// benchVictimPull measures starve with 200 of Bob's pushes queued and
// with none.
func benchVictimPull(b *testing.B) {
	b.StopTimer()
	defer b.StartTimer()
	queued := starve(newWorldTB(b), 200)
	idle := starve(newWorldTB(b), 0)
	reqs := float64(queued.listed - queued.asked)
	idleReqs := float64(idle.listed - idle.asked)
	waited := queued.listedAt.Sub(queued.askedAt)
	b.ReportMetric(reqs, "victim_pull_req")
	b.ReportMetric(idleReqs, "victim_idle_pull_req")
	b.ReportMetric(reqs/idleReqs, "victim_pull_req_ratio")
	b.ReportMetric(waited.Seconds(), "victim_pull_s")
	b.ReportMetric(queued.passTook.Seconds(), "queue_drain_s")
	b.ReportMetric(waited.Seconds()/queued.passTook.Seconds(), "victim_pull_s_ratio")
}

func benchDayOnce(b *testing.B) {
	benchDay := benchSpan(b)
	w := newWorldTB(b)
	start := w.clock.Now()
	counter := &minuteCounter{start: start, now: w.clock.Now, per: map[int]int{}}
	client, err := anilist.New(anilist.Config{Origin: w.origin, Limiter: w.limit, Recorder: counter})
	if err != nil {
		b.Fatal(err)
	}
	watch := &lowerWatch{Service: client, al: w.al, users: map[string]string{}}
	sealer, err := trackers.NewSealer(tokenKey)
	if err != nil {
		b.Fatal(err)
	}
	svc, err := trackersync.New(trackersync.Config{Store: w.st, Tracker: watch, Sealer: sealer, Now: w.clock.Now, Owner: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	// 500 Series with AniList ids 10000.., each bookmarked by the 10
	// Readers at chapter 10, who keep the same count on AniList, plus 20
	// entries we read nowhere.
	series := make([]storetest.SeriesOpts, benchSeries)
	ids := make([]store.SeriesIDs, benchSeries)
	for i := range series {
		id := "s" + strconv.Itoa(i+1)
		series[i] = storetest.SeriesOpts{Site: "mangadex", ID: id, URL: "https://mangadex.test/" + id, Title: "t" + strconv.Itoa(i+1), LatestNumber: "400"}
		ids[i] = store.SeriesIDs{Site: "mangadex", SeriesID: id,
			IDs: []store.ExternalID{{Kind: "al", Value: strconv.Itoa(10000 + i + 1), Source: store.IDFromSite}}}
	}
	storetest.Series(w.ctx, b, w.st, series...)
	if _, err := w.st.AddSeriesIDs(w.ctx, ids); err != nil {
		b.Fatal(err)
	}
	readers := make([]int64, benchReaders)
	for i := range readers {
		name := fmt.Sprintf("reader%d", i)
		readers[i] = w.reader(name)
		entries := make([]trackers.Entry, 0, benchSeries+20)
		for s := 1; s <= benchSeries+20; s++ {
			entries = append(entries, trackers.Entry{MediaID: strconv.Itoa(10000 + s), Progress: 10, Status: trackers.StatusCurrent})
		}
		w.al.AddUser(name, entries...)
		tok := "bench-token-" + name
		watch.users[tok] = name
		w.setUp(svc, readers[i], name, tok)
	}
	marks := make([]storetest.BookmarkOpts, 0, len(readers)*benchSeries)
	progress := make([]storetest.ProgressOpts, 0, len(readers)*benchSeries)
	for _, r := range readers {
		for _, s := range series {
			marks = append(marks, storetest.BookmarkOpts{ReaderID: r, Site: s.Site, SeriesID: s.ID})
			progress = append(progress, storetest.ProgressOpts{ReaderID: r, Site: s.Site, SeriesID: s.ID, Number: "10"})
		}
	}
	storetest.Bookmarks(w.ctx, b, w.st, marks...)
	storetest.Progress(w.ctx, b, w.st, progress...)
	// The day's plan (seeded): each Reader binges here three times (3
	// Series, 10 chapters each, a chapter every 10-20 s) and reads 30
	// chapters on the phone at random times.
	rng := rand.New(rand.NewPCG(30, 30))
	type hereRead struct {
		at     time.Time
		reader int
		series int
	}
	var here []hereRead
	var phone []phoneRead
	for r := range readers {
		for range 3 {
			at := start.Add(time.Duration(rng.Int64N(int64(benchDay - benchDay/24))))
			for range 3 {
				s := 1 + rng.IntN(benchSeries/2)
				for range 10 {
					here = append(here, hereRead{at: at, reader: r, series: s})
					at = at.Add(10*time.Second + time.Duration(rng.Int64N(int64(10*time.Second))))
				}
			}
		}
		for range 30 {
			phone = append(phone, phoneRead{reader: int64(r), series: benchSeries/2 + 1 + rng.IntN(benchSeries/2),
				at: start.Add(time.Duration(rng.Int64N(int64(benchDay - benchDay/24))))})
		}
	}
	sort.Slice(here, func(i, j int) bool { return here[i].at.Before(here[j].at) })
	sort.Slice(phone, func(i, j int) bool { return phone[i].at.Before(phone[j].at) })

	ours := map[[2]int]int{}   // (reader, series) → our chapter
	remote := map[[2]int]int{} // (reader, series) → the phone's count
	var waiting []phoneRead
	var latencies []time.Duration
	readsHere := 0
	var lookTime time.Duration
	looks := 0
	b.ResetTimer()
	end := start.Add(benchDay)
	// The span, then until the last phone reads are pulled (at most one
	// more interval).
	for w.clock.Now().Before(end) || (len(waiting) > 0 && w.clock.Now().Before(end.Add(2*trackersync.DefaultPullEvery))) {
		now := w.clock.Now()
		for len(here) > 0 && !here[0].at.After(now) {
			h := here[0]
			here = here[1:]
			k := [2]int{h.reader, h.series}
			if ours[k] == 0 {
				ours[k] = 10
			}
			ours[k]++
			w.read(readers[h.reader], "mangadex", "s"+strconv.Itoa(h.series), strconv.Itoa(ours[k]))
			readsHere++
		}
		for len(phone) > 0 && !phone[0].at.After(now) {
			p := phone[0]
			phone = phone[1:]
			k := [2]int{int(p.reader), p.series}
			if remote[k] == 0 {
				remote[k] = 10
			}
			remote[k]++
			p.to, p.at = remote[k], now
			w.al.SetEntry(fmt.Sprintf("reader%d", p.reader), trackers.Entry{MediaID: strconv.Itoa(10000 + p.series), Progress: p.to, Status: trackers.StatusCurrent})
			waiting = append(waiting, p)
		}
		t0 := time.Now()             // wall time on purpose: the cost of one look is measured
		pass, err := svc.Pass(w.ctx) // the worker's look: pulls and pushes in turn
		if err != nil {
			b.Fatal(err)
		}
		pulled := pass.Pulled
		lookTime += time.Since(t0)
		looks++
		if pulled > 0 {
			waiting = settled(w, readers, waiting, &latencies)
		}
		if w.clock.Now().Equal(now) {
			w.clock.Advance(benchTick)
		}
	}
	b.StopTimer()
	total, peak := 0, 0
	for _, n := range counter.per {
		total += n
		peak = max(peak, n)
	}
	var sum, worst time.Duration
	for _, d := range latencies {
		sum += d
		worst = max(worst, d)
	}
	if len(waiting) > 0 || len(latencies) == 0 {
		b.Fatalf("%d phone reads never reached Progress (%d did)", len(waiting), len(latencies))
	}
	b.ReportMetric(float64(peak), "peak_req/min")
	b.ReportMetric(float64(total)/(w.clock.Now().Sub(start).Minutes()), "mean_req/min")
	b.ReportMetric(float64(watch.saves)/float64(readsHere), "writes/read")
	b.ReportMetric(float64(watch.lowered), "lowering_pushes")
	b.ReportMetric(worst.Minutes(), "pull_max_min")
	b.ReportMetric(sum.Minutes()/float64(len(latencies)), "pull_mean_min")
	b.ReportMetric(trackersync.DefaultPullEvery.Minutes(), "interval_min")
	b.ReportMetric(float64(lookTime.Milliseconds())/float64(looks), "ms/look")
}

// settled moves the phone reads now in our Progress from waiting to
// latencies.
func settled(w *world, readers []int64, waiting []phoneRead, latencies *[]time.Duration) []phoneRead {
	var still []phoneRead
	for _, p := range waiting {
		got, _ := w.progress(readers[p.reader], "mangadex", "s"+strconv.Itoa(p.series))
		if n, err := strconv.ParseFloat(got, 64); err == nil && n >= float64(p.to) {
			*latencies = append(*latencies, w.clock.Now().Sub(p.at))
			continue
		}
		still = append(still, p)
	}
	return still
}
