package lanes

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/ownernotice"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
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
	sent []ownernotice.Notice
	fail func(ownernotice.Notice) error // optional: fails a send
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
	h.n = mustNotices(t, NoticesConfig{Store: h.st, Sites: all, Send: h.record, BaseURL: "https://manga.example.org/", Log: log})
	for _, o := range opts {
		o(h)
	}
	return h
}

func (h *ntHarness) record(_ context.Context, n ownernotice.Notice) error {
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
	storetest.Pass(context.Background(), h.t, h.st, store.Pass{Site: site, StartedAt: h.now,
		Due: p.due, Checked: p.checked, OK: p.ok, NotFound: p.notFound, NoChapter: p.noChapter,
		Unfetchable: p.unfetchable, Errors: p.errors, Refused: p.refused, Unreachable: p.unreachable, Skip: p.skip})
}

// failing records site's Series s000, s001, ... (the first len(outcomes))
// as failing since since, each with its outcome.
func (h *ntHarness) failing(site string, since time.Time, outcomes ...string) {
	h.t.Helper()
	for i, o := range outcomes {
		storetest.Failure(context.Background(), h.t, h.st, storetest.FailureOpts{Site: site, SeriesID: fmt.Sprintf("s%03d", i), Outcome: o, Since: since})
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
	h.t.Helper()
	for site := range h.sites {
		if _, err := h.st.PrunePasses(context.Background(), site, h.now.Add(-14*24*time.Hour)); err != nil {
			h.t.Fatal(err)
		}
	}
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
