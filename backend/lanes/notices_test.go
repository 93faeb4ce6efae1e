package lanes

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/notify"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// The notice tests drive Evaluate the way a Lane does: write the pass's
// poll_passes row at the test clock's time, then evaluate at that time.

var ntStart = time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)

func ntSites() []*sites.Site {
	return []*sites.Site{
		{Name: "mangadex"}, {Name: "weebcentral"}, {Name: "mangapill"},
		{Name: "kagane", Browser: true}, {Name: "comix", Browser: true}, {Name: "natomanga", Browser: true},
	}
}

// ntPass is one poll_passes row; zero fields are zero counts.
type ntPass struct {
	due, checked, ok, notFound, noChapter, unfetchable, errors, refused, unreachable int
	skip                                                                             string
}

type ntHarness struct {
	t     *testing.T
	st    *store.Store
	sites map[string]*sites.Site
	n     *Notices
	now   time.Time
	logs  *ntLogBuffer

	mu   sync.Mutex
	sent []notify.Notice
	fail func(notify.Notice) error // optional: fails a send
}

// ntLogBuffer is a goroutine-safe log sink.
type ntLogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *ntLogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *ntLogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newNT builds a harness; send replaces the recording notifier when set
// (nil-able through off).
func newNT(t *testing.T, opts ...func(*ntHarness)) *ntHarness {
	t.Helper()
	h := &ntHarness{t: t, st: dbtest.New(t), sites: map[string]*sites.Site{}, now: ntStart, logs: &ntLogBuffer{}}
	all := ntSites()
	for _, s := range all {
		h.sites[s.Name] = s
	}
	log := slog.New(slog.NewJSONHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h.n = NewNotices(h.st, all, h.record, "https://manga.example.org/", log)
	for _, o := range opts {
		o(h)
	}
	return h
}

func (h *ntHarness) record(_ context.Context, n notify.Notice) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fail != nil {
		if err := h.fail(n); err != nil {
			return err
		}
	}
	h.sent = append(h.sent, n)
	return nil
}

// pass writes one pass of site at the clock's time and evaluates it.
func (h *ntHarness) pass(site string, p ntPass) {
	h.t.Helper()
	h.insert(site, p)
	h.n.Evaluate(context.Background(), h.sites[site], h.now)
}

func (h *ntHarness) insert(site string, p ntPass) {
	h.t.Helper()
	_, err := h.st.Pool().Exec(context.Background(), `INSERT INTO poll_passes
		(site, started_at, finished_at, due, checked, ok, not_found, no_chapter, unfetchable, errors, refused, unreachable, skip)
		VALUES ($1, $2, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		site, h.now, p.due, p.checked, p.ok, p.notFound, p.noChapter, p.unfetchable, p.errors, p.refused, p.unreachable, p.skip)
	if err != nil {
		h.t.Fatal(err)
	}
}

func (h *ntHarness) exec(sql string, args ...any) {
	h.t.Helper()
	if _, err := h.st.Pool().Exec(context.Background(), sql, args...); err != nil {
		h.t.Fatal(err)
	}
}

func (h *ntHarness) series(site string, n int) {
	h.t.Helper()
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("s%03d", i)
		if _, err := h.st.EnsureSeries(context.Background(), site, id, "https://"+site+".example/"+id); err != nil {
			h.t.Fatal(err)
		}
	}
}

func (h *ntHarness) sentKinds() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, n := range h.sent {
		out = append(out, n.Kind+"/"+n.Site)
	}
	return out
}

func (h *ntHarness) rows() []store.Notice {
	h.t.Helper()
	list, err := h.st.ListNotices(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	return list
}

// prune mimics the Lane's 14-day retention of poll_passes.
func (h *ntHarness) prune() {
	h.exec(`DELETE FROM poll_passes WHERE started_at < $1`, h.now.Add(-14*24*time.Hour))
}

// runUntil runs step every interval from the clock's time until (and
// including) end, checking after each step that nothing was sent before
// fireAt and exactly want afterwards.
func (h *ntHarness) runUntil(end time.Time, every time.Duration, fireAt time.Time, want []string, step func()) {
	h.t.Helper()
	for ; !h.now.After(end); h.now = h.now.Add(every) {
		step()
		got := h.sentKinds()
		if h.now.Before(fireAt) {
			if len(got) != 0 {
				h.t.Fatalf("at +%s (before the window) sent %v", h.now.Sub(ntStart), got)
			}
			continue
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			h.t.Fatalf("at +%s sent %v, want %v", h.now.Sub(ntStart), got, want)
		}
	}
}

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
			h.exec(`INSERT INTO poll_lanes (site, refuse_until) VALUES ('mangadex', $1)
				ON CONFLICT (site) DO UPDATE SET refuse_until = EXCLUDED.refuse_until`, h.now.Add(15*time.Minute))
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
	for i, at := range []time.Time{broke, broke, broke.Add(2 * time.Hour)} {
		h.exec(`INSERT INTO poll_failures (site, series_id, outcome, failing_since) VALUES ('weebcentral', $1, 'no_chapter', $2)`,
			fmt.Sprintf("s%03d", i), at)
	}
	h.exec(`INSERT INTO poll_failures (site, series_id, outcome, failing_since) VALUES ('weebcentral', 's003', 'errors', $1)`, ntStart)
	h.runUntil(ntStart.Add(40*time.Hour), time.Hour, broke.Add(2*time.Hour+ownerWindow), []string{"adapter-broken/weebcentral"}, func() {
		h.pass("weebcentral", ntPass{due: 1, checked: 1, ok: 1})
	})
	n := h.sent[0]
	if n.DeepLink != "https://manga.example.org/admin/lanes/weebcentral" ||
		n.Description != "3 of 5 weebcentral Series have shown no Latest Chapter for 12h, so its pages have likely changed layout; update the weebcentral adapter." {
		t.Errorf("notice %+v", n)
	}
	// One row heals: 2 of 5 is not more than half, the episode closes.
	h.exec(`DELETE FROM poll_failures WHERE site = 'weebcentral' AND series_id = 's002'`)
	h.pass("weebcentral", ntPass{due: 1, checked: 1, ok: 1})
	if rows := h.rows(); len(rows) != 0 {
		t.Errorf("rows %+v", rows)
	}
}

func TestNoticeThirtyDayFaultSendsOne(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("30 simulated days")
	}
	h := newNT(t)
	h.series("kagane", 2)
	h.series("mangapill", 4)
	for i := 0; i < 4; i++ {
		h.exec(`INSERT INTO poll_failures (site, series_id, outcome, failing_since) VALUES ('mangapill', $1, 'no_chapter', $2)`,
			fmt.Sprintf("s%03d", i), ntStart)
	}
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
	h.exec(`INSERT INTO poll_failures (site, series_id, outcome, failing_since) VALUES ('mangadex', 's000', 'no_chapter', $1)`, ntStart)
	h.exec(`UPDATE series SET force_poll_at = $1 WHERE site = 'mangadex' AND series_id = 's001'`, ntStart)
	h.exec(`INSERT INTO poll_lanes (site, paused_until, pause_reason) VALUES ('weebcentral', $1, 'holiday')`, ntStart.Add(40*24*time.Hour))
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
		h.n = NewNotices(h.st, ntSites(), nil, "", nil)
	})
	for end := h.now.Add(13 * time.Hour); !h.now.After(end); h.now = h.now.Add(time.Hour) {
		h.pass("mangapill", ntPass{due: 5})
	}
	rows := h.rows()
	if len(rows) != 1 || rows[0].Kind != "stall" || rows[0].NotifiedAt != nil {
		t.Fatalf("rows %+v", rows)
	}
}

// TestNoticeWebhookRetriedAndSecret posts through the real Discord sender
// to a test server that answers 500 (or 429) once, then 204.
func TestNoticeWebhookRetriedAndSecret(t *testing.T) {
	t.Parallel()
	for _, first := range []int{http.StatusInternalServerError, http.StatusTooManyRequests} {
		t.Run(fmt.Sprint(first), func(t *testing.T) {
			t.Parallel()
			ntWebhookRetried(t, first)
		})
	}
}

// ntWebhookRetried: the test server answers first, then 204.
func ntWebhookRetried(t *testing.T, first int) {
	const secret = "/api/webhooks/42/tok-SECRET-tok"
	var posts, delivered atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if posts.Add(1) == 1 {
			w.WriteHeader(first)
			_, _ = io.WriteString(w, `{"message":"try again `+r.URL.Path+`","retry_after":0.5}`)
			return
		}
		delivered.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	h := newNT(t)
	log := slog.New(slog.NewJSONHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	send := notify.FromWebhook(srv.URL+secret, srv.Client(), log)
	h.n = NewNotices(h.st, ntSites(), send, "https://manga.example.org", log)

	for end := h.now.Add(ownerWindow); !h.now.After(end); h.now = h.now.Add(time.Hour) {
		h.pass("mangapill", ntPass{due: 5})
	}
	if posts.Load() != 1 || delivered.Load() != 0 {
		t.Fatalf("after the first attempt: posts %d delivered %d", posts.Load(), delivered.Load())
	}
	if rows := h.rows(); len(rows) != 1 || rows[0].NotifiedAt != nil {
		t.Fatalf("failed post must leave notified_at unset: %+v", rows)
	}
	for i := 0; i < 5; i++ {
		h.pass("mangapill", ntPass{due: 5})
		h.now = h.now.Add(time.Hour)
	}
	if posts.Load() != 2 || delivered.Load() != 1 {
		t.Fatalf("posts %d delivered %d, want 2 and 1", posts.Load(), delivered.Load())
	}
	logs := h.logs.String()
	if !strings.Contains(logs, "owner notice not sent") || !strings.Contains(logs, "owner notice sent") {
		t.Errorf("logs lack the failure or the send:\n%s", logs)
	}
	if strings.Contains(logs, "SECRET") || strings.Contains(logs, "/api/webhooks/42") {
		t.Errorf("logs leak the webhook URL:\n%s", logs)
	}
}

func TestNoticeStoreErrorsAreLogged(t *testing.T) {
	t.Parallel()
	h := newNT(t)
	h.pass("kagane", ntPass{due: 1})
	h.st.Close()
	h.n.Evaluate(context.Background(), h.sites["kagane"], h.now) // must not panic
	if !strings.Contains(h.logs.String(), `"level":"ERROR","msg":"owner notices: evaluate"`) {
		t.Fatalf("no store error logged:\n%s", h.logs.String())
	}
}

func TestNoticeAge(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{12 * time.Hour, "12h"}, {13*time.Hour + 59*time.Minute, "13h"}, {47 * time.Hour, "47h"},
		{48 * time.Hour, "2 days"}, {30 * 24 * time.Hour, "30 days"},
	} {
		if got := noticeAge(tc.d); got != tc.want {
			t.Errorf("noticeAge(%s) = %q, want %q", tc.d, got, tc.want)
		}
	}
	if got := joinSiteNames([]string{"a", "b", "c"}); got != "a, b and c" {
		t.Errorf("joinSiteNames = %q", got)
	}
}

// ntDeadSidecar is a browser route whose sidecar is gone.
type ntDeadSidecar struct{}

func (ntDeadSidecar) Fetch(context.Context, sites.Request) (*sites.Response, error) {
	return nil, fmt.Errorf("ntDeadSidecar: %w", sites.ErrUnreachable)
}

// TestNoticeLanesEndToEnd runs real Lane passes on the fake clock for a
// simulated day: a plain Site newly gated by refusals, a Site whose adapter
// finds no chapter anywhere, a healthy Site, and three browser Sites whose
// sidecar is gone. Exactly one notice per fault, none before 12h, no stall.
func TestNoticeLanesEndToEnd(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	clock := lanestest.NewFakeClock(ntStart)
	okNoCover := sites.Result{Outcome: sites.OK, Facts: sites.Facts{Title: "T", Latest: &sites.Chapter{Number: "1"}}}
	specs := []struct {
		name    string
		browser bool
		series  int
		outcome sites.Outcome
	}{
		{"mangadex", false, 4, sites.Refused},
		{"weebcentral", false, 3, sites.NoChapter},
		{"mangapill", false, 3, sites.OK},
		{"kagane", true, 2, ""}, {"comix", true, 2, ""}, {"natomanga", true, 2, ""},
	}
	var list []*sites.Site
	for _, sp := range specs {
		s, a := sitestest.Site(sp.name, sp.browser)
		list = append(list, s)
		for i := 0; i < sp.series; i++ {
			id := fmt.Sprintf("s%d", i)
			if _, err := st.EnsureSeries(ctx, sp.name, id, s.Origin+"/series/"+id); err != nil {
				t.Fatal(err)
			}
			switch sp.outcome {
			case "":
				a.UseFetcher = true // reads go through the dead sidecar
			case sites.OK:
				a.SetResult(id, okNoCover)
			default:
				a.SetOutcome(id, sp.outcome)
			}
		}
	}
	// The Series were added before the simulated day began (created_at
	// defaults to the wall clock, which the wake gate would read as future).
	if _, err := st.Pool().Exec(ctx, `UPDATE series SET created_at = $1`, ntStart.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	reg, err := sites.NewRegistry(list)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var sent []notify.Notice
	record := func(_ context.Context, n notify.Notice) error {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, n)
		return nil
	}
	m, err := New(Config{Store: st, Sites: reg, Plain: sitestest.NewFetcher(), Browser: ntDeadSidecar{},
		Clock: clock, Enabled: true, Notices: NewNotices(st, reg.All(), record, "https://manga.example.org", nil)})
	if err != nil {
		t.Fatal(err)
	}

	// One pass at a time, always the Lane whose next pass is earliest; the
	// test goroutine is the clock's only actor, so gap sleeps jump.
	clock.SetActors(1)
	defer clock.SetActors(0)
	next := map[string]time.Time{}
	end := ntStart.Add(24 * time.Hour)
	for {
		var pick string
		for _, s := range reg.All() {
			if pick == "" || next[s.Name].Before(next[pick]) {
				pick = s.Name
			}
		}
		if next[pick].After(end) {
			break
		}
		if d := next[pick].Sub(clock.Now()); d > 0 {
			clock.Advance(d)
		}
		_, pace := m.RunPass(ctx, pick)
		next[pick] = clock.Now().Add(max(pace, time.Second))
	}

	got := map[string]int{}
	for _, n := range sent {
		got[n.Kind+"/"+n.Site]++
		if n.At.Before(ntStart.Add(ownerWindow)) || !n.At.Before(ntStart.Add(14*time.Hour)) {
			t.Errorf("%s/%s sent at +%s, want within [12h, 14h)", n.Kind, n.Site, n.At.Sub(ntStart))
		}
	}
	want := map[string]int{"no-browser-route/mangadex": 1, "adapter-broken/weebcentral": 1, "sidecar-down/": 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("sent %v, want %v", got, want)
	}
	rows, err := st.ListNotices(ctx)
	if err != nil || len(rows) != 3 {
		t.Fatalf("rows %+v %v", rows, err)
	}
	for _, r := range rows {
		if r.NotifiedAt == nil {
			t.Errorf("row %+v not marked notified", r)
		}
	}
}
