package trackersync_test

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/store/storetest"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist"
	"mangabookmark/backend/trackersync"
)

// requestLog is the stand-in's requests in the order they came, by kind
// and whose.
type requestLog struct {
	mu  sync.Mutex
	req []string // "kind user"
}

func (l *requestLog) add(kind, user string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.req = append(l.req, kind+" "+user)
	return len(l.req)
}

// bobsQueue makes Bob a Reader with pull and push on and n Series whose
// AniList ids (Sites' word, on his list at 1, so his pull has seen them)
// he then reads to 5: n pushes wait in the outbox once the window passed.
func bobsQueue(w *world, svc *trackersync.Service, n int) int64 {
	w.t.Helper()
	bob := w.reader("bob")
	var entries []trackers.Entry
	series := make([]storetest.SeriesOpts, n)
	marks := make([]storetest.BookmarkOpts, n)
	for i := range n {
		id := "b" + strconv.Itoa(i)
		series[i] = storetest.SeriesOpts{Site: "mangadex", ID: id, Title: "bob " + id}
		marks[i] = storetest.BookmarkOpts{ReaderID: bob, Site: "mangadex", SeriesID: id}
		entries = append(entries, entry(strconv.Itoa(5000+i), 1, trackers.StatusCurrent))
	}
	storetest.Series(w.ctx, w.t, w.st, series...)
	storetest.Bookmarks(w.ctx, w.t, w.st, marks...)
	for i := range n {
		w.siteID("mangadex", "b"+strconv.Itoa(i), strconv.Itoa(5000+i))
	}
	w.al.AddUser("bob", entries...)
	w.setUp(svc, bob, "bob", "tok-bob")
	return bob
}

// starved is what Ann's "pull now" met: where in the stand-in's requests
// she asked and where her list came, the fake clock at both, Carol's one
// write among the writes, and the pass.
type starved struct {
	asked, listed     int
	askedAt, listedAt time.Time
	carolSave, saves  int
	pass              trackersync.Passed
	passTook          time.Duration // the pass on the fake clock: the pace's waits
	log               []string
}

// askAtWrite is Bob's write during which Ann asks: by then the pace is
// spent, so each request waits its turn.
const askAtWrite = 100

// starve is the review's T5-3: Bob has queued pushes waiting (Carol
// one); Ann asks for a pull while Bob's 100th write is in flight (or
// before the pass, when Bob has fewer than 100). A pass runs.
func starve(w *world, queued int) starved {
	w.t.Helper()
	svc := w.service("one")
	ann := w.reader("ann")
	w.series("mangadex", "a", "", "700")
	w.bookmark(ann, "mangadex", "a", "2")
	w.al.AddUser("ann", entry("700", 2, trackers.StatusCurrent))
	w.setUp(svc, ann, "ann", "")
	carol := w.reader("carol")
	w.series("mangadex", "c", "", "800")
	w.bookmark(carol, "mangadex", "c", "1")
	w.al.AddUser("carol", entry("800", 1, trackers.StatusCurrent))
	w.setUp(svc, carol, "carol", "tok-carol")
	bob := bobsQueue(w, svc, queued)
	if p, err := svc.Pass(w.ctx); err != nil || p.Pulled != 3 || p.Wrote != 0 {
		w.t.Fatalf("first pass (the three lists): %+v, %v", p, err)
	}
	for i := range queued {
		w.read(bob, "mangadex", "b"+strconv.Itoa(i), "5")
	}
	w.read(carol, "mangadex", "c", "4")
	if n := w.push(svc); n != 0 { // the outbox's first look: nothing rested yet
		w.t.Fatalf("%d pushes before the window", n)
	}
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	w.al.SetEntry("ann", entry("700", 9, trackers.StatusCurrent))

	var log requestLog
	var mu sync.Mutex // the stand-in's handlers run on their own goroutines
	var out starved
	pullNow := func(n int) {
		if err := svc.PullNow(w.ctx, ann, anilist.Name); err != nil {
			w.t.Errorf("pull now: %v", err)
		}
		out.asked, out.askedAt = n, w.clock.Now()
	}
	if queued < askAtWrite {
		pullNow(0)
	}
	observe := func(kind, user string) {
		n := log.add(kind, user)
		mu.Lock()
		defer mu.Unlock()
		if kind == trackers.KindSave {
			out.saves++
			if user == "carol" {
				out.carolSave = out.saves
			}
			if user == "bob" && out.saves == askAtWrite {
				pullNow(n)
			}
		}
		if kind == trackers.KindList && user == "ann" && out.listed == 0 && !out.askedAt.IsZero() {
			out.listed, out.listedAt = n, w.clock.Now()
		}
	}
	w.observe.Store(&observe)
	start := w.clock.Now()
	p, err := svc.Pass(w.ctx)
	out.passTook = w.clock.Now().Sub(start)
	w.observe.Store(nil)
	if err != nil {
		w.t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	out.pass, out.log = p, log.req
	if out.listed == 0 {
		w.t.Fatalf("Ann's list never asked after her pull now (%d requests)", len(log.req))
	}
	if got, _ := w.progress(ann, "mangadex", "a"); got != "9" {
		w.t.Fatalf("Ann's Progress %s after her pull, want 9", got)
	}
	return out
}

// TestPullNowNotBehindAnotherReadersPushes is the review's T5-3 as an
// attack: Bob has 200 pushes queued; Ann asks for a pull while they are
// being sent. Her list is asked before any more of Bob's requests than
// the push in flight (counted on the stand-in, no clock), and Carol's one
// push takes its turn among the first two, not after Bob's 200.
func TestPullNowNotBehindAnotherReadersPushes(t *testing.T) {
	w := newWorld(t)
	got := starve(w, 200)
	// Between her "pull now" (during Bob's 100th write) and her list: at
	// most the push in flight, its read and its write.
	if between := got.listed - got.asked - 1; between > 2 {
		t.Fatalf("Ann's pull waited %d of Bob's requests (asked at %d, listed at %d): %v", between, got.asked, got.listed, got.log[got.asked:got.listed])
	}
	if got.carolSave == 0 || got.carolSave > 2 {
		t.Fatalf("Carol's one push was write %d of %d, want among the first two", got.carolSave, got.saves)
	}
	if got.pass.Wrote != 201 || got.pass.Pulled < 1 {
		t.Fatalf("pass = %+v, want 201 writes (Bob's 200, Carol's 1) and Ann's pull", got.pass)
	}
}
