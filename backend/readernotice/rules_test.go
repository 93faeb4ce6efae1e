package readernotice_test

import (
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

func TestDigestGroupsAReadersChaptersAfterTheWindow(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	r := w.reader("111", h, 900)
	for _, id := range []string{"a", "b", "c"} {
		w.bookmark(r, "mangapill", id)
		w.read("mangapill", id, "1") // baseline
	}
	w.read("mangapill", "a", "2")
	w.clk.Add(time.Minute)
	w.read("mangapill", "b", "2")
	w.clk.Add(time.Minute)
	w.read("mangapill", "c", "5")
	w.clk.Add(5 * time.Minute)
	w.run()
	if n := len(h.received()); n != 0 {
		t.Fatalf("%d webhook calls 7 minutes after the first event, inside a 900 s window", n)
	}
	w.clk.Add(9 * time.Minute) // 16 minutes after the first event
	w.run()
	got := h.received()
	if len(got) != 1 {
		t.Fatalf("%d webhook calls after the window, want one Digest", len(got))
	}
	body := decode(t, got[0].Body)
	if body.Event != "new_chapters" || body.Reader.DiscordID != "111" || len(body.Chapters) != 3 {
		t.Fatalf("digest: %+v", body)
	}
	if body.Chapters[0].SeriesID != "a" || body.Chapters[2].Number != "5" || body.Chapters[2].Title != "Series c" ||
		body.Chapters[2].URL != "https://mangapill.example/c/5" || body.Chapters[2].ChapterTitle != "Ch 5" {
		t.Fatalf("chapters: %+v", body.Chapters)
	}
	w.clk.Add(time.Hour)
	w.run()
	if n := len(h.received()); n != 1 {
		t.Fatalf("%d calls after another pass; a notice was sent twice", n)
	}
}

func TestDigestWindowZeroSendsAtOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	r := w.reader("1", h, 0)
	w.bookmark(r, "mangapill", "a")
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	w.run()
	if n := len(h.received()); n != 1 {
		t.Fatalf("digest_s 0: %d calls on the first pass, want 1", n)
	}
}

func TestCaughtUpIsDroppedAtSendTime(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	r := w.reader("1", h, 60)
	w.bookmark(r, "mangapill", "a")
	w.bookmark(r, "mangapill", "b")
	w.read("mangapill", "a", "1")
	w.read("mangapill", "b", "1")
	w.read("mangapill", "a", "2")
	w.read("mangapill", "b", "2")
	// The Reader reads a's chapter 2 on the Site before the window ends.
	storetest.Progress(w.ctx, t, w.st, storetest.ProgressOpts{ReaderID: r, Site: "mangapill", SeriesID: "a", Number: "2"})
	w.clk.Add(2 * time.Minute)
	w.run()
	got := h.received()
	if len(got) != 1 {
		t.Fatalf("%d calls, want 1", len(got))
	}
	if body := decode(t, got[0].Body); len(body.Chapters) != 1 || body.Chapters[0].SeriesID != "b" {
		t.Fatalf("the caught-up chapter was sent: %+v", body.Chapters)
	}
	if n := w.count(`SELECT count(*) FROM reader_notices WHERE outcome = 'caught_up' AND series_id = 'a'`); n != 1 {
		t.Fatalf("caught-up notice not settled as caught_up (%d)", n)
	}
}

func TestMutedSinceIsNotSent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	r := w.reader("1", h, 0)
	w.bookmark(r, "mangapill", "a")
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	storetest.SetBookmarks(w.ctx, t, w.st, storetest.BookmarkSet{NotifyMode: "off"})
	w.run()
	if n := len(h.received()); n != 0 {
		t.Fatalf("a bookmark muted after the event was still sent (%d calls)", n)
	}
}

func TestPileHoldsUntilNChaptersOrDDays(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	r := w.reader("1", h, 0)
	w.bookmark(r, "mangapill", "n") // pile of 3
	w.bookmark(r, "mangapill", "d") // pile of 50, or 2 days
	storetest.SetBookmarks(w.ctx, t, w.st, storetest.BookmarkSet{IDs: []string{"n"}, NotifyMode: "pile", Pile: 3, PileDays: 7})
	storetest.SetBookmarks(w.ctx, t, w.st, storetest.BookmarkSet{IDs: []string{"d"}, NotifyMode: "pile", Pile: 50, PileDays: 2})
	w.read("mangapill", "n", "1")
	w.read("mangapill", "d", "1")
	w.read("mangapill", "n", "2")
	w.read("mangapill", "n", "3")
	w.read("mangapill", "d", "2")
	w.clk.Add(time.Hour)
	w.run()
	if n := len(h.received()); n != 0 {
		t.Fatalf("a pile below N and younger than D days was sent (%d calls)", n)
	}
	w.read("mangapill", "n", "4") // the third unread of n
	w.run()
	got := h.received()
	if len(got) != 1 {
		t.Fatalf("%d calls after the third unread chapter, want 1", len(got))
	}
	if body := decode(t, got[0].Body); len(body.Chapters) != 3 || body.Chapters[0].SeriesID != "n" {
		t.Fatalf("the pile's Digest: %+v", body.Chapters)
	}
	w.clk.Add(46 * time.Hour)
	w.run()
	if n := len(h.received()); n != 1 {
		t.Fatal("the D-days pile went out before D days")
	}
	w.clk.Add(3 * time.Hour)
	w.run()
	got = h.received()
	if len(got) != 2 {
		t.Fatalf("%d calls after D days, want the held chapter sent", len(got))
	}
	if body := decode(t, got[1].Body); len(body.Chapters) != 1 || body.Chapters[0].SeriesID != "d" {
		t.Fatalf("the D-days Digest: %+v", body.Chapters)
	}
}

func TestPileCountsOnlyUnread(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	r := w.reader("1", h, 0)
	w.bookmark(r, "mangapill", "n")
	storetest.SetBookmarks(w.ctx, t, w.st, storetest.BookmarkSet{NotifyMode: "pile", Pile: 2, PileDays: 7})
	w.read("mangapill", "n", "1")
	w.read("mangapill", "n", "2")
	storetest.Progress(w.ctx, t, w.st, storetest.ProgressOpts{ReaderID: r, Site: "mangapill", SeriesID: "n", Number: "2"})
	w.read("mangapill", "n", "3")
	w.run()
	if n := len(h.received()); n != 0 {
		t.Fatalf("a read chapter counted toward the pile (%d calls)", n)
	}
}

func TestDigestNamesLateSites(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	r := w.reader("1", h, 0)
	w.bookmark(r, "mangapill", "a")
	w.bookmark(r, "weebcentral", "w")
	w.bookmark(r, "mangadex", "x")
	w.bookmark(r, "comix", "c")
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	now := w.clk.Now()
	storetest.Lane(w.ctx, t, w.st, storetest.LaneOpts{Site: "weebcentral", PausedUntil: storetest.At(now.Add(time.Hour))})
	storetest.Lane(w.ctx, t, w.st, storetest.LaneOpts{Site: "mangadex", RefuseUntil: storetest.At(now.Add(time.Hour))})
	storetest.Pass(w.ctx, t, w.st, store.Pass{Site: "comix", StartedAt: now.Add(-time.Minute), Skip: "browser_down"})
	storetest.Failure(w.ctx, t, w.st, storetest.FailureOpts{Site: "mangapill", SeriesID: "a", Outcome: "errors", Since: now.Add(-time.Hour)})
	w.run()
	got := h.received()
	if len(got) != 1 {
		t.Fatalf("%d calls", len(got))
	}
	states := map[string]string{}
	for _, l := range decode(t, got[0].Body).Late {
		states[l.Site] = l.State
	}
	want := map[string]string{"weebcentral": "paused", "mangadex": "refusing", "comix": "browser_down", "mangapill": "failing"}
	for site, st := range want {
		if states[site] != st {
			t.Errorf("late %s: %q, want %q (all: %v)", site, states[site], st, states)
		}
	}
	d := readernotice.Digest{Late: decode(t, got[0].Body).Late}
	if text := d.LateText(); strings.Count(text, "chapters there may be late") != 4 || !strings.Contains(text, "Series a") {
		t.Errorf("late text: %q", text)
	}
}
