package lanes

import (
	"context"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store/storetest"
)

func TestNoticeThirtyDayFaultSendsOne(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("30 simulated days")
	}
	h := newNT(t)
	h.series("kagane", 2)
	h.series("mangapill", 4)
	h.failing("mangapill", ntStart, "no_chapter", "no_chapter", "no_chapter", "no_chapter")
	h.runUntil(ntStart.Add(30*24*time.Hour), 4*time.Hour, ntStart.Add(ownerWindow),
		[]string{"stall/mangadex", "no-browser-route/weebcentral", "adapter-broken/mangapill", "sidecar-down/"}, func() {
			h.pass("mangadex", ntPass{due: 9})
			h.pass("weebcentral", ntPass{due: 3, refused: 2})
			h.pass("mangapill", ntPass{due: 4, checked: 4, noChapter: 4})
			h.pass("kagane", ntPass{due: 2, skip: "browser_down"})
			h.prune()
		})
	if n := h.sent[0]; !strings.Contains(n.Description, "for 12h") {
		t.Errorf("first notice %q", n.Description)
	}
	if rows := h.rows(); len(rows) != 4 {
		t.Errorf("rows %+v", rows)
	}
}

func TestNoticeClearThenRecurrenceSendsAgain(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	stallFor := func(d time.Duration) {
		for end := h.now.Add(d); !h.now.After(end); h.now = h.now.Add(time.Hour) {
			h.pass("mangapill", ntPass{due: 5})
		}
	}
	stallFor(13 * time.Hour)
	if got := h.sentKinds(); len(got) != 1 {
		t.Fatalf("first episode sent %v", got)
	}
	h.pass("mangapill", ntPass{due: 5, checked: 5, ok: 5})
	if rows := h.rows(); len(rows) != 0 {
		t.Fatalf("rows after clearing %+v", rows)
	}
	h.now = h.now.Add(time.Hour)
	stallFor(11 * time.Hour)
	if got := h.sentKinds(); len(got) != 1 {
		t.Fatalf("recurrence inside the window sent %v", got)
	}
	stallFor(2 * time.Hour)
	if got := h.sentKinds(); strings.Join(got, ",") != "stall/mangapill,stall/mangapill" {
		t.Fatalf("recurrence sent %v", got)
	}
}

func TestNoticeNeverPushed(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	h.series("natomanga", 10)
	h.series("mangadex", 10)
	h.failing("mangadex", ntStart, "no_chapter")
	ctx := context.Background()
	storetest.SetSeries(ctx, t, h.st, storetest.SeriesSet{Site: "mangadex", IDs: []string{"s001"}, ForcePollAt: storetest.At(ntStart)})
	storetest.Lane(ctx, t, h.st, storetest.LaneOpts{Site: "weebcentral", PausedUntil: storetest.At(ntStart.Add(40 * 24 * time.Hour)), PauseReason: "holiday"})
	for i := 0; h.now.Before(ntStart.Add(2 * 24 * time.Hour)); h.now, i = h.now.Add(time.Hour), i+1 {
		// A browser Site refusing: an ordinary challenge, not a fault.
		if i%2 == 0 {
			h.pass("natomanga", ntPass{due: 3, checked: 1, refused: 2})
		} else {
			h.pass("natomanga", ntPass{skip: "refusing"})
		}
		h.pass("weebcentral", ntPass{skip: "paused"})                                 // a pause
		h.pass("mangadex", ntPass{due: 2, checked: 2, ok: 1, noChapter: 1})           // one failing Series
		h.pass("mangapill", ntPass{due: 0})                                           // nothing due
		h.pass("kagane", ntPass{due: 1, skip: "asleep"})                              // browser asleep
		h.pass("comix", ntPass{due: 2, checked: 2, ok: 1, errors: 1, unreachable: 0}) // healthy enough
	}
	if got := h.sentKinds(); len(got) != 0 {
		t.Fatalf("sent %v", got)
	}
	if rows := h.rows(); len(rows) != 0 {
		t.Fatalf("rows %+v", rows)
	}
}

func TestNoticePauseHoldsAnOpenEpisode(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	for end := h.now.Add(13 * time.Hour); !h.now.After(end); h.now = h.now.Add(time.Hour) {
		h.pass("mangapill", ntPass{due: 5})
	}
	// The Owner pauses the stalled Lane: no message, and the episode stays.
	for end := h.now.Add(24 * time.Hour); !h.now.After(end); h.now = h.now.Add(time.Hour) {
		h.pass("mangapill", ntPass{skip: "paused"})
	}
	h.pass("mangapill", ntPass{due: 5})
	if got := h.sentKinds(); len(got) != 1 {
		t.Fatalf("sent %v", got)
	}
	if rows := h.rows(); len(rows) != 1 {
		t.Fatalf("rows %+v", rows)
	}
}

func TestNoticeRestartsDoNotEndAStall(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	// Passes 0..12 stall (the notice goes at 12h); a restart, a lost lock
	// and a store error must neither end the episode nor restart its age.
	for i := 0; i < 40; i++ {
		switch i {
		case 6, 13:
			h.pass("mangapill", ntPass{skip: "stopped"}) // a restart
		case 14:
			h.pass("mangapill", ntPass{skip: "lock_lost"}) // another process took over
		case 15:
			h.pass("mangapill", ntPass{skip: "store_error"})
		default:
			h.pass("mangapill", ntPass{due: 5})
		}
		h.now = h.now.Add(time.Hour)
	}
	if got := h.sentKinds(); strings.Join(got, ",") != "stall/mangapill" || !h.sent[0].At.Equal(ntStart.Add(ownerWindow)) {
		t.Fatalf("sent %v (first at %v)", got, h.sent)
	}
	if rows := h.rows(); len(rows) != 1 {
		t.Fatalf("rows %+v", rows)
	}
}

func TestNoticeNilNotifierKeepsRows(t *testing.T) {
	t.Parallel()
	h := newNT(t, func(h *ntHarness) {
		h.n = mustNotices(t, NoticesConfig{Store: h.st, Sites: ntSites()})
	})
	for end := h.now.Add(13 * time.Hour); !h.now.After(end); h.now = h.now.Add(time.Hour) {
		h.pass("mangapill", ntPass{due: 5})
	}
	rows := h.rows()
	if len(rows) != 1 || rows[0].Kind != "stall" || rows[0].NotifiedAt != nil {
		t.Fatalf("rows %+v", rows)
	}
}
