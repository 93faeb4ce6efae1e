package lanes

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/store/storetest"
)

func TestNoticeStallFiresOnceAfterWindow(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	h.pass("mangapill", ntPass{due: 3, checked: 3, ok: 3})
	h.now = h.now.Add(time.Hour)
	first := h.now
	h.runUntil(first.Add(36*time.Hour), 30*time.Minute, first.Add(ownerWindow), []string{"stall/mangapill"}, func() {
		h.pass("mangapill", ntPass{due: 42})
		h.pass("mangadex", ntPass{due: 2, checked: 2, ok: 2}) // a healthy neighbour
	})
	n := h.sent[0]
	if n.Subject != "mangapill" || n.DeepLink != "https://manga.example.org/admin/lanes/mangapill" || !n.At.Equal(first.Add(ownerWindow)) {
		t.Errorf("notice %+v", n)
	}
	if n.Description != "mangapill has checked nothing for 12h although 42 Series are due; look at its Lane in mbctl and at the backend log." {
		t.Errorf("description %q", n.Description)
	}
	rows := h.rows()
	if len(rows) != 1 || rows[0].Kind != "stall" || rows[0].NotifiedAt == nil || !rows[0].OpenedAt.Equal(first.Add(ownerWindow)) {
		t.Errorf("rows %+v", rows)
	}
}

func TestNoticeNoBrowserRouteNewlyGatedNotStall(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	h.pass("mangadex", ntPass{due: 4, checked: 4, ok: 4})
	h.now = h.now.Add(time.Hour)
	gated := h.now
	i := 0
	h.runUntil(gated.Add(30*time.Hour), 15*time.Minute, gated.Add(ownerWindow), []string{"no-browser-route/mangadex"}, func() {
		// The gate holds for 15m, then one probe pass meets two refusals
		// (due > 0, checked = 0, skip empty) and renews it.
		if i%2 == 0 {
			storetest.Lane(context.Background(), t, h.st, storetest.LaneOpts{Site: "mangadex", RefuseUntil: storetest.At(h.now.Add(15 * time.Minute))})
			h.pass("mangadex", ntPass{due: 4, refused: 2})
		} else {
			h.pass("mangadex", ntPass{skip: "refusing"})
		}
		i++
	})
	if d := h.sent[0].Description; !strings.Contains(d, "mangadex has refused every read for 12h and has no browser route") {
		t.Errorf("description %q", d)
	}
	// The Site answers again: the episode is over.
	h.pass("mangadex", ntPass{due: 4, checked: 4, ok: 4})
	if rows := h.rows(); len(rows) != 0 {
		t.Errorf("rows after recovery %+v", rows)
	}
}

func TestNoticeSidecarDownThreeLanesSendOne(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	h.series("comix", 3)
	for _, s := range []string{"kagane", "comix", "natomanga"} {
		h.pass(s, ntPass{due: 1, checked: 1, ok: 1})
	}
	h.now = h.now.Add(time.Hour)
	lost := h.now
	step := 0
	h.runUntil(lost.Add(30*time.Hour), 30*time.Minute, lost.Add(ownerWindow), []string{"sidecar-down/"}, func() {
		// Each browser Lane writes its pass, then all three evaluate at
		// once, as three Lane goroutines would.
		for j, s := range []string{"kagane", "comix", "natomanga"} {
			switch (step + j) % 3 {
			case 0:
				h.insert(s, ntPass{due: 2, unreachable: 1}) // probe lost the sidecar
			case 1:
				h.insert(s, ntPass{due: 2, skip: "browser_down"})
			default:
				h.insert(s, ntPass{due: 1, skip: "asleep"})
			}
		}
		var wg sync.WaitGroup
		for _, s := range []string{"kagane", "comix", "natomanga"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				h.n.Evaluate(context.Background(), h.sites[s], h.now)
			}()
		}
		wg.Wait()
		h.pass("mangapill", ntPass{due: 1, checked: 1, ok: 1}) // plain Lanes unaffected
		step++
	})
	n := h.sent[0]
	if n.Subject != "browser sidecar" || n.Site != "" || n.DeepLink != "https://manga.example.org/admin" ||
		!strings.Contains(n.Description, "kagane, comix and natomanga are not polled") {
		t.Errorf("notice %+v", n)
	}
	// A Lane reaches the sidecar: the row goes.
	h.pass("natomanga", ntPass{due: 1, checked: 1, refused: 1})
	if rows := h.rows(); len(rows) != 0 {
		t.Errorf("rows after reach %+v", rows)
	}
}

func TestNoticeSidecarQuietWithoutBrowserSeries(t *testing.T) {
	t.Parallel()
	h := newNT(t) // no Series on any browser Site: a deployment without them
	for ; h.now.Before(ntStart.Add(3 * 24 * time.Hour)); h.now = h.now.Add(time.Hour) {
		h.pass("kagane", ntPass{skip: "no_browser"})
		h.pass("comix", ntPass{skip: "no_browser"})
	}
	if got := h.sentKinds(); len(got) != 0 {
		t.Fatalf("sent %v", got)
	}
	if rows := h.rows(); len(rows) != 0 {
		t.Fatalf("rows %+v", rows)
	}
}

func TestNoticeAdapterBrokenShare(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	h.series("weebcentral", 5)
	broke := ntStart.Add(time.Hour)
	// Two rows break at once; a third two hours later crosses one half.
	ctx := context.Background()
	for i, at := range []time.Time{broke, broke, broke.Add(2 * time.Hour)} {
		storetest.Failure(ctx, t, h.st, storetest.FailureOpts{Site: "weebcentral", SeriesID: fmt.Sprintf("s%03d", i), Outcome: "no_chapter", Since: at})
	}
	storetest.Failure(ctx, t, h.st, storetest.FailureOpts{Site: "weebcentral", SeriesID: "s003", Outcome: "errors", Since: ntStart})
	h.runUntil(ntStart.Add(40*time.Hour), time.Hour, broke.Add(2*time.Hour+ownerWindow), []string{"adapter-broken/weebcentral"}, func() {
		h.pass("weebcentral", ntPass{due: 1, checked: 1, ok: 1})
	})
	n := h.sent[0]
	if n.DeepLink != "https://manga.example.org/admin/lanes/weebcentral" ||
		n.Description != "3 of 5 weebcentral Series have failed with `no_chapter` (no Latest Chapter found on the page) for 12h, so the Site has likely changed its pages or API: check one with `mangabookmark probe <Series URL> --save DIR`, then update the weebcentral adapter (docs/operations.md, \"When a Site changes\")." {
		t.Errorf("notice %+v", n)
	}
	// One row heals: 2 of 5 is not more than half, the episode closes.
	storetest.ClearFailure(ctx, t, h.st, storetest.FailureOpts{Site: "weebcentral", SeriesID: "s002"})
	h.pass("weebcentral", ntPass{due: 1, checked: 1, ok: 1})
	if rows := h.rows(); len(rows) != 0 {
		t.Errorf("rows %+v", rows)
	}
}

// Exactly half is not "more than half": 2 of 4 Series without a Latest
// Chapter for 12h is no adapter-broken notice; a third makes it one.
func TestNoticeAdapterBrokenExactlyHalfIsNot(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	h.series("mangadex", 4)
	h.failing("mangadex", ntStart, "no_chapter", "no_chapter")
	h.now = ntStart.Add(2 * ownerWindow)
	h.pass("mangadex", ntPass{due: 1, checked: 1, ok: 1})
	if got := h.sentKinds(); len(got) != 0 {
		t.Fatalf("2 of 4 sent %v", got)
	}
	h.failing("mangadex", ntStart, "no_chapter", "no_chapter", "no_chapter")
	h.pass("mangadex", ntPass{due: 1, checked: 1, ok: 1})
	if got := h.sentKinds(); len(got) != 1 || got[0] != "adapter-broken/mangadex" {
		t.Fatalf("3 of 4 sent %v", got)
	}
}

// A Site-wide not_found wave (Comix retiring its chapter API answered 404
// for every Series) is a broken adapter too: 3 of 4 comix Series read as
// gone for the owner window fire adapter-broken, and the embed names the
// outcome. Rows of other outcomes never add to the share.
func TestNoticeAdapterBrokenNotFoundWave(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	h.series("comix", 4)
	h.failing("comix", ntStart, "not_found", "not_found", "not_found")
	h.now = ntStart.Add(ownerWindow - time.Hour)
	h.pass("comix", ntPass{due: 3, checked: 3, notFound: 3})
	if got := h.sentKinds(); len(got) != 0 {
		t.Fatalf("inside the window sent %v", got)
	}
	h.now = ntStart.Add(ownerWindow)
	h.pass("comix", ntPass{due: 3, checked: 3, notFound: 3})
	if got := h.sentKinds(); len(got) != 1 || got[0] != "adapter-broken/comix" {
		t.Fatalf("sent %v", got)
	}
	if d := h.sent[0].Description; !strings.HasPrefix(d, "3 of 4 comix Series have failed with `not_found` (the Site says the Series is gone) for 12h,") {
		t.Errorf("description %q", d)
	}
}

// An unfetchable wave fires it as well, and two outcomes that together
// pass one half but each hold only half (2 unfetchable + 2 errors of 4)
// do not: the rule is one and the same outcome.
func TestNoticeAdapterBrokenUnfetchableWave(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	h.series("kagane", 4)
	h.failing("kagane", ntStart, "unfetchable", "unfetchable", "errors", "errors")
	h.now = ntStart.Add(2 * ownerWindow)
	h.pass("kagane", ntPass{due: 4, checked: 4, unfetchable: 2, errors: 2})
	if got := h.sentKinds(); len(got) != 0 {
		t.Fatalf("mixed outcomes sent %v", got)
	}
	h.failing("kagane", ntStart, "unfetchable", "unfetchable", "unfetchable")
	h.pass("kagane", ntPass{due: 4, checked: 4, unfetchable: 3, errors: 1})
	if got := h.sentKinds(); len(got) != 1 || got[0] != "adapter-broken/kagane" {
		t.Fatalf("sent %v", got)
	}
	if d := h.sent[0].Description; !strings.Contains(d, "3 of 4 kagane Series have failed with `unfetchable` (answers the adapter cannot read)") {
		t.Errorf("description %q", d)
	}
}

// Exactly half of a not_found wave is not "more than half".
func TestNoticeAdapterBrokenHalfNotFoundIsNot(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	h.series("natomanga", 6)
	h.failing("natomanga", ntStart, "not_found", "not_found", "not_found")
	h.now = ntStart.Add(3 * ownerWindow)
	h.pass("natomanga", ntPass{due: 1, checked: 1, ok: 1})
	if got := h.sentKinds(); len(got) != 0 {
		t.Fatalf("3 of 6 sent %v", got)
	}
	if rows := h.rows(); len(rows) != 0 {
		t.Fatalf("rows %+v", rows)
	}
}
