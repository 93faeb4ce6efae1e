package readernotice_test

import (
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
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
	w.exec(`INSERT INTO progress (reader_id, site, series_id, number, read_at) VALUES ($1, 'mangapill', 'a', 2, now())`, r)
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
	w.exec(`UPDATE bookmarks SET notify_mode = 'off'`)
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
	w.exec(`UPDATE bookmarks SET notify_mode = 'pile', notify_pile = 3, notify_pile_days = 7 WHERE series_id = 'n'`)
	w.exec(`UPDATE bookmarks SET notify_mode = 'pile', notify_pile = 50, notify_pile_days = 2 WHERE series_id = 'd'`)
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
	w.exec(`UPDATE bookmarks SET notify_mode = 'pile', notify_pile = 2, notify_pile_days = 7`)
	w.read("mangapill", "n", "1")
	w.read("mangapill", "n", "2")
	w.exec(`INSERT INTO progress (reader_id, site, series_id, number, read_at) VALUES ($1, 'mangapill', 'n', 2, now())`, r)
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
	w.exec(`INSERT INTO poll_lanes (site, paused_until) VALUES ('weebcentral', $1)`, now.Add(time.Hour))
	w.exec(`INSERT INTO poll_lanes (site, refuse_until) VALUES ('mangadex', $1)`, now.Add(time.Hour))
	w.exec(`INSERT INTO poll_passes (site, started_at, finished_at, skip) VALUES ('comix', $1, $1, 'browser_down')`, now.Add(-time.Minute))
	w.exec(`INSERT INTO poll_failures (site, series_id, outcome, failing_since) VALUES ('mangapill', 'a', 'errors', $1)`, now.Add(-time.Hour))
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
