package browser

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites"
)

// countingHandler counts the log records by message, so a test can tell a
// replaced tab from a redialled connection.
type countingHandler struct {
	mu   sync.Mutex
	n    map[string]int
	logs []string
}

func (h *countingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *countingHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.n[r.Message]++
	line := r.Time.Format("15:04:05.000") + " " + r.Message
	r.Attrs(func(a slog.Attr) bool {
		line += " " + a.String()
		return true
	})
	h.logs = append(h.logs, line)
	return nil
}
func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *countingHandler) WithGroup(string) slog.Handler      { return h }

func (h *countingHandler) count(msg string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n[msg]
}

// crashEnv is a Browser on its own Chromium (the test crashes its tabs)
// and a Site whose /wait page is a challenge that never clears, so a read
// of it is still waiting when the renderer dies. waiting is signalled once
// that page's script runs: the document has committed in the renderer that
// the crash then takes down.
type crashEnv struct {
	chrome  *chromiumtest.Chromium
	b       *Browser
	srv     *httptest.Server
	waiting chan struct{}
	log     *countingHandler
	before  int // page targets before the Browser's first tab
}

func newCrashEnv(t *testing.T, flags ...string) *crashEnv {
	t.Helper()
	e := &crashEnv{chrome: chromiumtest.Launch(t, flags...), waiting: make(chan struct{}, 1), log: &countingHandler{n: map[string]int{}}}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/wait": // a challenge that never clears
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `<html><head><title>Just a moment...</title></head><body>`+
				`<script>fetch("/running")</script></body></html>`)
			return
		case "/hog": // a page that allocates until its renderer dies
			fmt.Fprint(w, `<html><head><title>Series</title></head><body><script>`+
				`const keep = []; for (;;) keep.push(new Array(1 << 20).fill(keep.length));`+
				`</script></body></html>`)
			return
		case "/running": // the challenge page runs in its own renderer now
			select {
			case e.waiting <- struct{}{}:
			default:
			}
			return
		}
		fmt.Fprint(w, `<html><head><title>Series</title></head><body>ok</body></html>`)
	}))
	t.Cleanup(e.srv.Close)
	e.before = e.pages(t)
	// The challenge wait only has to outlast the kill; it never ends the read.
	b, err := New(Config{WSURL: e.chrome.WSURL(), ChallengeWait: 2 * time.Minute, PollInterval: 20 * time.Millisecond,
		Log: slog.New(e.log)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	e.b = b
	return e
}

func (e *crashEnv) pages(t *testing.T) int {
	t.Helper()
	p, err := e.chrome.Pages()
	if err != nil {
		t.Fatal(err)
	}
	return len(p)
}

// fetch is one read with a bound sized to a loaded machine (a fresh tab
// waits for a new renderer), far above what it takes alone.
func (e *crashEnv) fetch(path string) (*sites.Response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return e.b.Fetch(ctx, sites.Request{Page: e.srv.URL + path})
}

// wantRead checks that a read of a plain page succeeds on the same
// connection (no redial) and leaves exactly the Browser's one tab open.
func (e *crashEnv) wantRead(t *testing.T, when string) {
	t.Helper()
	res, err := e.fetch("/series")
	if err != nil || res.Status != http.StatusOK {
		t.Fatalf("%s: res %v err %v", when, res, err)
	}
	if n := e.log.count("connected"); n != 1 {
		t.Errorf("%s: %d connects, want the first one only (a crashed tab is replaced, the connection kept)", when, n)
	}
	if n := e.log.count("reconnecting"); n != 0 {
		t.Errorf("%s: %d reconnects, want none; the Browser's log:\n%s", when, n, strings.Join(e.log.logs, "\n"))
	}
	if n := e.pages(t); n != e.before+1 {
		t.Errorf("%s: %d page targets, want one tab more than %d (the crashed tab closed)", when, n, e.before)
	}
}

// A page whose renderer dies under the read (Chrome's Page.crash here; a
// page that exhausts its renderer's memory ends the same way) is that
// page's failure: the read's error is
// sites.ErrPageCrashed, which classifies as unfetchable (a failure row for
// that Series, which goes to the back of the line), not a lost sidecar
// (unreachable, which would gate every browser Lane). The Browser answers
// the next read at once on the same connection, through a fresh tab.
func TestTabCrashIsThatPagesUnfetchable(t *testing.T) {
	t.Parallel()
	e := newCrashEnv(t)
	errc := make(chan error, 1)
	go func() {
		_, err := e.fetch("/wait")
		errc <- err
	}()
	select {
	case <-e.waiting:
	case err := <-errc:
		t.Fatalf("Fetch ended before the crash: %v", err)
	}
	if !e.b.crashTab() {
		t.Fatal("no tab to crash")
	}
	err := <-errc
	if !errors.Is(err, sites.ErrPageCrashed) || errors.Is(err, sites.ErrUnreachable) || sites.ClassifyError(err) != sites.Unfetchable {
		t.Fatalf("Fetch across the crash: %v (%s), want sites.ErrPageCrashed (unfetchable)", err, sites.ClassifyError(err))
	}
	e.wantRead(t, "the read after the crash")
}

// A renderer that dies while the tab waits between reads fails no read:
// the next Fetch replaces the tab on the same connection.
func TestTabCrashBetweenReadsIsReplaced(t *testing.T) {
	t.Parallel()
	e := newCrashEnv(t)
	if res, err := e.fetch("/series"); err != nil || res.Status != http.StatusOK {
		t.Fatalf("first read: res %v err %v", res, err)
	}
	if !e.b.crashTab() {
		t.Fatal("no tab to crash")
	}
	// Wait for the Browser to learn of the crash (Chrome reports it on the
	// socket), so the next read meets a crashed tab rather than racing it.
	deadline := time.Now().Add(time.Minute)
	for !e.b.tabCrashed() {
		if time.Now().After(deadline) {
			t.Fatal("the Browser never saw its tab crash")
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.wantRead(t, "the read after a crash between reads")
}

// A hostile page that allocates until its renderer runs out of memory
// crashes its own tab; the read is that page's unfetchable and the next
// read goes on through a fresh tab. (The renderer's heap is capped small
// so the crash comes in a moment.)
func TestPageExhaustingItsRendererIsUnfetchable(t *testing.T) {
	t.Parallel()
	e := newCrashEnv(t, chromiumtest.SmallPageHeap)
	_, err := e.fetch("/hog")
	if !errors.Is(err, sites.ErrPageCrashed) || sites.ClassifyError(err) != sites.Unfetchable {
		t.Fatalf("Fetch of a page exhausting its renderer: %v (%s), want sites.ErrPageCrashed (unfetchable)", err, sites.ClassifyError(err))
	}
	e.wantRead(t, "the read after the page crashed its tab")
}
