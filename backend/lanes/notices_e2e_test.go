package lanes

import (
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
	"mangabookmark/backend/ownernotice"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
)

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
	send := ownernotice.FromWebhook(srv.URL+secret, srv.Client(), log)
	h.n = mustNotices(t, NoticesConfig{Store: h.st, Sites: ntSites(), Send: send, BaseURL: "https://manga.example.org", Log: log})

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

func TestJoinSiteNames(t *testing.T) {
	t.Parallel()
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
	storetest.SetSeries(ctx, t, st, storetest.SeriesSet{CreatedAt: storetest.At(ntStart.Add(-time.Hour))})
	reg, err := sites.NewRegistry(list)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var sent []ownernotice.Notice
	record := func(_ context.Context, n ownernotice.Notice) error {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, n)
		return nil
	}
	m, err := New(Config{Store: st, Sites: reg, Plain: sitestest.NewFetcher(), Browser: ntDeadSidecar{},
		Clock: clock, Enabled: true, OwnerNotices: mustNotices(t, NoticesConfig{Store: st, Sites: reg.All(), Send: record, BaseURL: "https://manga.example.org"})})
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
