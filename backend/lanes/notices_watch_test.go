package lanes

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// watcher is another process's Notices on the same database: the watchdog
// judges a Lane it does not run.
func (h *ntHarness) watcher() *Notices {
	h.t.Helper()
	st, err := store.Open(context.Background(), h.st.DSN())
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(st.Close)
	return mustNotices(h.t, NoticesConfig{Store: st, Sites: ntSites(), Send: h.record, BaseURL: "https://manga.example.org/"})
}

func (h *ntHarness) beat(site string, at time.Time) {
	h.t.Helper()
	if err := h.st.BeatLane(context.Background(), site, "hung", at, nil); err != nil {
		h.t.Fatal(err)
	}
}

// A Lane whose holder writes no pass row and no heartbeat while Series are
// due is a stall once the silence is ownerWindow old, judged by another
// process's watchdog; the holder's next pass ends the episode.
func TestNoticeStallWhenTheLaneFallsSilent(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	w := h.watcher()
	ctx := context.Background()
	h.series("mangapill", 3)
	h.pass("mangapill", ntPass{due: 3, checked: 3, ok: 3})
	storetest.SetSeries(ctx, t, h.st, storetest.SeriesSet{CheckedAt: storetest.At(h.now)})
	lastBeat := h.now.Add(time.Hour)
	h.beat("mangapill", lastBeat)
	h.now = lastBeat
	h.runUntil(lastBeat.Add(15*time.Hour), 20*time.Minute, lastBeat.Add(ownerWindow), []string{"stall/mangapill"}, func() {
		w.Watch(ctx, h.sites["mangapill"], h.now)
		w.Watch(ctx, h.sites["mangadex"], h.now) // no Series: never a stall
	})
	n := h.sent[0]
	if !n.At.Equal(lastBeat.Add(ownerWindow)) || n.DeepLink != "https://manga.example.org/admin/lanes/mangapill" ||
		n.Description != "mangapill's Lane has written nothing for 12h although 3 Series are due: the process holding it may be hung; look at the Lane's last heartbeat in mbctl and at the backend log." {
		t.Errorf("notice %+v", n)
	}
	if rows := h.rows(); len(rows) != 1 || rows[0].Kind != "stall" || rows[0].Site != "mangapill" {
		t.Fatalf("rows %+v", rows)
	}
	// A new holder's first pass ends the silence and the episode.
	h.pass("mangapill", ntPass{due: 3, checked: 3, ok: 3})
	if rows := h.rows(); len(rows) != 0 {
		t.Fatalf("the episode outlived the silence: %+v", rows)
	}
}

// A heartbeat is life: a Lane deep in a long first pass (no pass row yet)
// beating on time is no stall, nor is a silent Lane with nothing due, nor
// one the Owner paused.
func TestNoticeSilenceNeedsDueAndNoHeartbeat(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	w := h.watcher()
	ctx := context.Background()
	h.series("mangapill", 3) // never checked: due from the start, no pass row ever
	h.series("weebcentral", 2)
	storetest.SetSeries(ctx, t, h.st, storetest.SeriesSet{Site: "weebcentral", CheckedAt: storetest.At(h.now.Add(30 * 24 * time.Hour))})
	h.series("mangadex", 2)
	storetest.SetSeries(ctx, t, h.st, storetest.SeriesSet{Site: "mangadex", CreatedAt: storetest.At(h.now)})
	storetest.Lane(ctx, t, h.st, storetest.LaneOpts{Site: "mangadex", PausedUntil: storetest.At(h.now.Add(30 * 24 * time.Hour))})
	h.runUntil(h.now.Add(30*time.Hour), 30*time.Minute, h.now.Add(40*time.Hour), nil, func() {
		h.beat("mangapill", h.now)
		for _, s := range []string{"mangapill", "weebcentral", "mangadex"} {
			w.Watch(ctx, h.sites[s], h.now)
		}
	})
	if rows := h.rows(); len(rows) != 0 {
		t.Fatalf("rows %+v", rows)
	}
}
