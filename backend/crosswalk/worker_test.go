package crosswalk_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/config"
	"mangabookmark/backend/crosswalk"
)

// A Site's al id is looked up once: the story's other ids are stored with
// source crosswalk, and the Series links with another Site's Series that
// carries one of them (here the MangaUpdates id, as that Site's URL id).
// That Series' own id is then answered from the cache: no second request.
func TestCrosswalkFillsOnceAndLinks(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	x.read(1, "mangadex", "a", id("al", "30003"))
	x.read(2, "comix", "b", id("mu", "ktr1ti2"))
	if w := x.workOf("mangadex", "a"); w != 0 {
		t.Fatalf("linked before the crosswalk: Work %d", w)
	}
	st := x.pass()
	if st.Taken != 2 || st.Requests != 1 || st.Cached != 1 {
		t.Fatalf("pass %+v, want 2 ids taken, 1 request, 1 from the cache", st)
	}
	if got, want := x.ids("mangadex", "a"), "al:30003/site kt:12/crosswalk mal:3/crosswalk mb:1001/crosswalk mu:"+ktr1ti2+"/crosswalk"; got != want {
		t.Fatalf("mangadex/a ids %q, want %q", got, want)
	}
	if got, want := x.ids("comix", "b"), "al:30003/crosswalk kt:12/crosswalk mal:3/crosswalk mb:1001/crosswalk mu:"+ktr1ti2+"/site"; got != want {
		t.Fatalf("comix/b ids %q, want %q", got, want)
	}
	if wa, wb := x.workOf("mangadex", "a"), x.workOf("comix", "b"); wa == 0 || wa != wb {
		t.Fatalf("Works %d and %d, want one", wa, wb)
	}
	if got := x.mb.requests(); len(got) != 1 || got[0] != "GET /v1/source/anilist/30003" {
		t.Fatalf("asked %v", got)
	}
	// Nothing left: the crosswalk's own ids are not queued again.
	if st := x.pass(); st.Taken != 0 {
		t.Fatalf("second pass %+v, want nothing queued", st)
	}
}

// An id seen within CacheFor asks nothing; after it, one request.
func TestCrosswalkCache(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	x.read(1, "mangadex", "a", id("al", "30003"))
	x.pass()
	x.clock.Advance(6 * 24 * time.Hour)
	x.read(1, "mangapill", "c", id("al", "30003"))
	if st := x.pass(); st.Requests != 0 || st.Cached != 1 {
		t.Fatalf("within 7 days: %+v, want the cache", st)
	}
	x.clock.Advance(2 * 24 * time.Hour)
	x.read(1, "weebcentral", "d", id("al", "30003"))
	if st := x.pass(); st.Requests != 1 {
		t.Fatalf("after 7 days: %+v, want one request", st)
	}
	if n := len(x.mb.requests()); n != 2 {
		t.Fatalf("%d requests in all, want 2", n)
	}
}

// At most PerMinute lookups start in a minute: the next waits on the clock.
func TestCrosswalkPace(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 2)
	x.read(1, "mangadex", "a", id("al", "1"))
	x.read(1, "comix", "b", id("al", "2"))
	x.read(1, "mangapill", "c", id("al", "3"))
	done := make(chan crosswalk.Stats)
	go func() {
		st, err := x.w.RunOnce(context.Background())
		if err != nil {
			t.Error(err)
		}
		done <- st
	}()
	if !x.clock.WaitSleepers(context.Background(), 1) {
		t.Fatal("the third lookup never waited")
	}
	if n := len(x.mb.requests()); n != 2 {
		t.Fatalf("%d requests before the minute passed, want 2", n)
	}
	x.clock.Advance(time.Minute)
	st := <-done
	if st.Requests != 3 || len(x.mb.requests()) != 3 {
		t.Fatalf("pass %+v, %d requests; want 3", st, len(x.mb.requests()))
	}
}

// CROSSWALK=off builds no Worker: nothing is sent.
func TestCrosswalkSwitch(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	cfg, err := config.Load(func(k string) string {
		return map[string]string{"CROSSWALK": "off", "TRACKER_ORIGINS": "mangabaka=" + x.mb.srv.URL}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	w, err := crosswalk.FromConfig(cfg, x.st, "test", nil)
	if err != nil || w != nil {
		t.Fatalf("CROSSWALK=off: %v %v, want no Worker", w, err)
	}
	cfg.Crosswalk = true
	if w, err = crosswalk.FromConfig(cfg, x.st, "test", nil); err != nil || w == nil {
		t.Fatalf("CROSSWALK=on: %v %v", w, err)
	}
	x.read(1, "mangadex", "a", id("al", "30003"))
	if _, err := w.RunOnce(x.ctx); err != nil {
		t.Fatal(err)
	}
	if got := x.mb.requests(); len(got) != 1 {
		t.Fatalf("on, TRACKER_ORIGINS' mangabaka origin asked %v, want one lookup", got)
	}
}

// A hostile answer fills nothing and is not asked again for CacheFor:
// a huge body, wrong types, a series naming another id of the kind asked.
func TestCrosswalkHostileAnswers(t *testing.T) {
	t.Parallel()
	f := fixture(t)
	cases := map[string]string{
		"huge":               `{"status":200,"data":{"series":[` + strings.Repeat(`{"id":1,"state":"deleted"},`, 60000) + `{"id":1}]}}`,
		"series not a list":  `{"status":200,"data":{"series":{"id":1001}}}`,
		"al a string":        strings.Replace(f, `"id": 30003`, `"id": "30003"`, 1),
		"mu a number":        strings.Replace(f, `"id": "ktr1ti2"`, `"id": 45334600346`, 1),
		"series id a string": strings.Replace(f, `"id": 1001`, `"id": "x"`, 1),
		"another story":      strings.Replace(f, `"id": 30003`, `"id": 30004`, 1),
		"not json":           `<html>`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			x := newWorld(t, 0)
			x.mb.set("/v1/source/anilist/30003", answer{status: 200, body: body})
			x.read(1, "mangadex", "a", id("al", "30003"))
			if st := x.pass(); st.Hostile != 1 || st.Filled != 0 {
				t.Fatalf("pass %+v, want one hostile answer and nothing filled", st)
			}
			if got := x.ids("mangadex", "a"); got != "al:30003/site" {
				t.Fatalf("ids %q, want the Site's alone", got)
			}
			x.read(1, "comix", "b", id("al", "30003"))
			if st := x.pass(); st.Requests != 0 {
				t.Fatalf("asked again within 7 days: %+v", st)
			}
		})
	}
}

// A 429 or a 5xx fills nothing and gives the id back for later; the
// answer after that fills it.
func TestCrosswalkTransient(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	x.mb.set("/v1/source/anilist/30003", answer{status: 429, body: `{"status":429,"message":"slow down"}`, header: map[string]string{"Retry-After": "120"}})
	x.read(1, "mangadex", "a", id("al", "30003"))
	if st := x.pass(); st.Retried != 1 || st.Filled != 0 {
		t.Fatalf("429: %+v", st)
	}
	if st := x.pass(); st.Taken != 0 {
		t.Fatalf("taken again before Retry-After: %+v", st)
	}
	x.clock.Advance(2 * time.Minute)
	x.mb.set("/v1/source/anilist/30003", answer{status: 200, body: fixture(t)})
	if st := x.pass(); st.Requests != 1 || st.Filled != 4 {
		t.Fatalf("after Retry-After: %+v, want 4 ids filled", st)
	}
}

// A 429 ends the pass: the ids claimed after it go back to the queue
// untried, for the wait the answer named (MangaBaka counts per address,
// not per id), and are taken then.
func TestCrosswalk429GivesTheRestBack(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	x.mb.set("/v1/source/anilist/30003", answer{status: 429, body: `{"status":429}`, header: map[string]string{"Retry-After": "120"}})
	x.read(1, "mangadex", "a", id("al", "30003"))
	x.read(1, "mangadex", "b", id("al", "30004"))
	x.read(1, "mangadex", "c", id("al", "30005"))
	if st := x.pass(); st.Taken != 3 || st.Requests != 1 || st.Retried != 1 {
		t.Fatalf("429: %+v, want 3 taken, 1 asked", st)
	}
	x.clock.Advance(61 * time.Second)
	if st := x.pass(); st.Taken != 0 {
		t.Fatalf("taken again before Retry-After: %+v", st)
	}
	x.clock.Advance(time.Minute)
	x.mb.set("/v1/source/anilist/30003", answer{status: 200, body: fixture(t)})
	if st := x.pass(); st.Taken != 3 || st.Requests != 3 {
		t.Fatalf("after Retry-After: %+v, want all 3 taken and asked", st)
	}
}

// A 429 whose Retry-After is a count of seconds too large for a Duration
// waits the cap (an hour), not whatever the overflowed product is: 2^64
// ns rounded up to seconds wraps to under a second.
func TestCrosswalkHostileRetryAfter(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	x.mb.set("/v1/source/anilist/30003", answer{status: 429, body: `{"status":429}`, header: map[string]string{"Retry-After": "18446744074"}})
	x.read(1, "mangadex", "a", id("al", "30003"))
	if st := x.pass(); st.Retried != 1 {
		t.Fatalf("429: %+v", st)
	}
	x.clock.Advance(59 * time.Minute)
	if st := x.pass(); st.Taken != 0 {
		t.Fatalf("taken again within the hour: %+v", st)
	}
	x.clock.Advance(2 * time.Minute)
	x.mb.set("/v1/source/anilist/30003", answer{status: 200, body: fixture(t)})
	if st := x.pass(); st.Requests != 1 || st.Filled != 4 {
		t.Fatalf("after the hour: %+v, want 4 ids filled", st)
	}
}

// A Reader's own id is looked up too, and the ids it brings are that
// Reader's word (their source and Reader), linking in their library only.
func TestCrosswalkReaderWordStaysTheReaders(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	x.read(1, "mangadex", "a")
	x.read(2, "comix", "b", id("mu", "ktr1ti2"))
	if _, err := x.st.AddBookmark(x.ctx, 1, "comix", "b", "https://comix.example/b"); err != nil {
		t.Fatal(err)
	}
	if err := x.st.NameSeriesID(x.ctx, 1, "mangadex", "a", id("al", "30003")); err != nil {
		t.Fatal(err)
	}
	x.pass()
	if got, want := x.ids("mangadex", "a"), "al:30003/reader/1 kt:12/reader/1 mal:3/reader/1 mb:1001/reader/1 mu:"+ktr1ti2+"/reader/1"; got != want {
		t.Fatalf("mangadex/a ids %q, want %q", got, want)
	}
	if w := x.workOf("mangadex", "a"); w != 0 {
		t.Fatalf("a Reader's word linked for everyone: Work %d", w)
	}
	if w, err := x.st.ReaderWorkOf(x.ctx, 1, "mangadex", "a"); err != nil || w == 0 {
		t.Fatalf("in Ann's library: Work %d (%v), want one", w, err)
	}
	if w, err := x.st.ReaderWorkOf(x.ctx, 2, "mangadex", "a"); err == nil {
		t.Fatalf("in Bob's library: Work %d, want none", w)
	}
}

// An unlink sticks against crosswalk ids: a later Series with the same id
// joins the Work, the unlinked one stays out, both for everyone after the
// Owner's shared unlink and in the library of a Reader who unlinked it.
func TestCrosswalkUnlinkSticks(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	x.read(1, "mangadex", "a", id("al", "30003"))
	x.read(1, "comix", "b", id("mu", "ktr1ti2"))
	x.pass()
	wk := x.workOf("mangadex", "a")
	if wk == 0 || x.workOf("comix", "b") != wk {
		t.Fatal("not linked by the crosswalk")
	}
	x.read(1, "mangapill", "c", id("kt", "12"))
	x.pass()
	if _, err := x.st.UnlinkMember(x.ctx, 1, wk, "mangapill", "c"); err != nil {
		t.Fatal(err)
	}
	if err := x.st.UnlinkShared(x.ctx, wk, "comix", "b"); err != nil {
		t.Fatal(err)
	}
	x.read(1, "weebcentral", "d", id("mal", "3"))
	x.pass()
	if got := x.workOf("weebcentral", "d"); got != wk {
		t.Fatalf("weebcentral/d in Work %d, want %d", got, wk)
	}
	if got := x.workOf("comix", "b"); got == wk {
		t.Fatalf("the unlinked comix/b is back in Work %d", wk)
	}
	if w, err := x.st.ReaderWorkOf(x.ctx, 1, "mangapill", "c"); err == nil && w == wk {
		t.Fatalf("mangapill/c, which Ann unlinked, is back in her Work %d", wk)
	}
}

// A started Worker is woken by the commit that queues an id (any
// process's: store.ListenCrosswalk), not by its poll.
func TestCrosswalkWorkerWakesOnNewIDs(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	passes := make(chan crosswalk.Stats, 16)
	w, err := crosswalk.New(crosswalk.Config{Store: x.st, Client: crosswalk.NewClient(x.mb.srv.URL, "test", nil),
		Clock: x.clock, OnPass: func(s crosswalk.Stats) { passes <- s }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w.Start(ctx)
	defer w.Stop()
	<-passes // the pass at start: nothing queued
	x.read(1, "mangadex", "a", id("al", "30003"))
	for st := range passes {
		if st.Filled > 0 {
			break
		}
	}
	if got := x.ids("mangadex", "a"); !strings.Contains(got, "mb:1001/crosswalk") {
		t.Fatalf("ids %q after the wake", got)
	}
}
