package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites"
)

// wsHeader is a server's (unmasked) WebSocket text frame header announcing
// size payload bytes, in the shortest form the protocol allows.
func wsHeader(size int64) []byte {
	switch {
	case size < 126:
		return []byte{0x81, byte(size)}
	case size < 1<<16:
		return []byte{0x81, 126, byte(size >> 8), byte(size)}
	}
	h := []byte{0x81, 127}
	for i := 7; i >= 0; i-- {
		h = append(h, byte(size>>(8*i)))
	}
	return h
}

// A frame announced over the bound fails the read that meets its header,
// before any of its payload is read (rod would allocate the announced size
// first), and stays failed; overran names the announced size, which is how
// Fetch tells a page's oversized message from a lost sidecar. Frames up to
// the bound, headers split across reads included, pass through untouched.
func TestFrameLimitStopsAFrameOverTheBound(t *testing.T) {
	t.Parallel()
	const bound = 1000
	browserEnd, ours := net.Pipe()
	t.Cleanup(func() { _ = browserEnd.Close(); _ = ours.Close() })
	f := &frameLimit{Conn: ours, max: bound, on: true}

	var want []byte
	want = append(want, wsHeader(5)...)
	want = append(want, "hello"...)
	atBound := append(wsHeader(bound), strings.Repeat("y", bound)...)
	want = append(want, atBound...)
	const over = int64(1) << 40
	wrote := make(chan error, 1)
	go func() {
		// net.Pipe hands each write over whole or in part, so the writes
		// below are the chunks the reader meets.
		write := func(b []byte) error { _, err := browserEnd.Write(b); return err }
		err := write(want[:7])
		for i := 7; err == nil && i < 7+4; i++ { // the bound frame's header, a byte at a time
			err = write(want[i : i+1])
		}
		if err == nil {
			err = write(want[11:])
		}
		for _, b := range wsHeader(over) { // the header over the bound, a byte at a time
			if err == nil {
				err = write([]byte{b})
			}
		}
		if err == nil {
			// The payload: nobody may read it, so this write ends only
			// when the test closes the pipe.
			err = write([]byte("payload of the oversized frame"))
			if err == nil {
				err = errors.New("the oversized frame's payload was read")
			} else {
				err = nil
			}
		}
		wrote <- err
	}()

	var got []byte
	buf := make([]byte, 64)
	var err error
	for err == nil {
		var n int
		n, err = f.Read(buf)
		got = append(got, buf[:n]...)
	}
	if !errors.Is(err, errFrameOver) {
		t.Fatalf("read past the frames under the bound: %v, want errFrameOver", err)
	}
	// The oversized header comes through up to its last byte, which
	// completes the length: rod cannot allocate before it has that.
	hdr := wsHeader(over)
	if want = append(want, hdr[:len(hdr)-1]...); string(got) != string(want) {
		t.Errorf("the frames up to the bound came through as %d bytes, want %d", len(got), len(want))
	}
	if n := f.overran(); n != over {
		t.Errorf("overran() = %d, want the announced %d", n, over)
	}
	if n := f.largest.Load(); n != over {
		t.Errorf("largest = %d, want %d", n, over)
	}
	if n, again := f.Read(buf); n != 0 || !errors.Is(again, errFrameOver) {
		t.Errorf("the read after the overrun: %d bytes, %v; want none and the same error", n, again)
	}
	_ = browserEnd.Close()
	_ = ours.Close()
	if err := <-wrote; err != nil {
		t.Error(err)
	}
}

// A frame under the bound leaves overran at zero, and an ordinary end of
// the stream (a dropped connection) is not an overrun.
func TestFrameLimitEndOfStreamIsNoOverrun(t *testing.T) {
	t.Parallel()
	browserEnd, ours := net.Pipe()
	t.Cleanup(func() { _ = ours.Close() })
	f := &frameLimit{Conn: ours, max: 1000, on: true}
	go func() {
		_, _ = browserEnd.Write(append(wsHeader(3), "abc"...))
		_ = browserEnd.Close()
	}()
	b, err := io.ReadAll(f)
	if err != nil || len(b) != 5 {
		t.Fatalf("read %d bytes, %v; want 5 and a clean end", len(b), err)
	}
	if n := f.overran(); n != 0 {
		t.Errorf("overran() = %d after an ordinary end, want 0", n)
	}
}

// overrunEnv is a Browser on its own Chromium, with a small body limit
// (16 KiB: DevTools messages are bounded to 1.1 MiB), and a Site that
// attacks the DevTools connection. /getters/ redefines Document.prototype's
// readyState and contentType (and title) getters to answer 3 MiB, and
// window._cf_chl_opt to throw as much: a probe in the page's world would
// carry that across DevTools. /longurl/ is a challenge page (so the wait
// goes on) whose script requests a 1.5 MiB URL: Chrome reports the
// request, URL and all, in a Network event over the bound. /cfglobal/ is
// a challenge whose only sign is the global an external script sets.
// /series/ is an honest page.
type overrunEnv struct {
	chrome *chromiumtest.Chromium
	b      *Browser
	srv    *httptest.Server
	site   *sites.Site
	log    *countingHandler
	before int // page targets before the Browser's first tab
}

func newOverrunEnv(t *testing.T, challengeWait time.Duration) *overrunEnv {
	t.Helper()
	e := &overrunEnv{chrome: chromiumtest.Launch(t), log: &countingHandler{n: map[string]int{}}}
	page := func(w http.ResponseWriter, title, script string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>`+title+`</title><script>`+script+`</script></head>
<body><h1>Series 7</h1><a class="latest" href="/series/7/chapter-12">Chapter 12</a></body></html>`)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/getters/", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Series 7", `
const huge = 'x'.repeat(3 << 20);
for (const name of ['readyState', 'contentType', 'title']) {
  Object.defineProperty(Document.prototype, name, { get() { return huge; }, configurable: true });
}
// The name is built, so no script text shows a challenge marker.
Object.defineProperty(window, ['_cf', 'chl', 'opt'].join('_'), { get() { throw new Error(huge); } });`)
	})
	mux.HandleFunc("/longurl/", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Just a moment...", `fetch('/x?' + 'a'.repeat(3 << 19)).catch(() => {});`)
	})
	mux.HandleFunc("/cfglobal/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Series 7</title><script src="/chl.js"></script></head><body>Series 7</body></html>`)
	})
	mux.HandleFunc("/chl.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, `window[['_cf', 'chl', 'opt'].join('_')] = {cType: 'managed'};`)
	})
	mux.HandleFunc("/series/", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Series 8", "")
	})
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	u, _ := url.Parse(e.srv.URL)
	e.site = &sites.Site{Name: "hostile", Hosts: []string{u.Host}, Browser: true, Origin: e.srv.URL}
	e.before = e.pages(t)
	// No read bound is under test: two minutes, room for a loaded machine.
	b, err := New(Config{WSURL: e.chrome.WSURL(), MaxBody: 16 << 10, ChallengeWait: challengeWait,
		ReadTimeout: 2 * time.Minute, PollInterval: 20 * time.Millisecond, Log: slog.New(e.log)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	e.b = b
	return e
}

func (e *overrunEnv) pages(t *testing.T) int {
	t.Helper()
	p, err := e.chrome.Pages()
	if err != nil {
		t.Fatal(err)
	}
	return len(p)
}

func (e *overrunEnv) fetch(path string) (*sites.Response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	return e.b.Fetch(ctx, sites.Request{Site: e.site, Page: e.srv.URL + path})
}

// wantNextSeries checks that the next Series' read succeeds and that
// nothing so far was taken for a lost sidecar.
func (e *overrunEnv) wantNextSeries(t *testing.T) {
	t.Helper()
	res, err := e.fetch("/series/8")
	if err != nil || res.Status != http.StatusOK || !strings.Contains(string(res.Body), "<title>Series 8</title>") {
		t.Fatalf("the next Series' read: res %v err %v", res, err)
	}
	if n := e.log.count("sidecar lost"); n != 0 {
		t.Errorf("%d \"sidecar lost\" records, want none; the Browser's log:\n%s", n, strings.Join(e.log.logs, "\n"))
	}
}

// A page that redefines Document.prototype's readyState and contentType
// getters (and title's) to answer 3 MiB, and has window._cf_chl_opt throw
// a 3 MiB error, changes nothing the wait reads: the probe runs in the
// isolated world and the one look at the page's own world answers a
// boolean, so the page is read, its real content type kept, and no
// DevTools message grows (the connection is the first one, never dialled
// again).
func TestPageGettersCannotSwellTheProbe(t *testing.T) {
	t.Parallel()
	// No wait is under test: two minutes, room for a loaded machine.
	e := newOverrunEnv(t, 2*time.Minute)
	res, err := e.fetch("/getters/7")
	if err != nil {
		t.Fatalf("read of a page with swollen getters: %v (%s), want its page", err, sites.ClassifyError(err))
	}
	if body := string(res.Body); !strings.Contains(body, `<a class="latest" href="/series/7/chapter-12">`) || len(body) > 16<<10 {
		t.Errorf("the read returned %d bytes: %.200q", len(body), body)
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %.100q, want the response's own", ct)
	}
	if n, ok := LargestFrame(e.b); !ok || n > 256<<10 {
		t.Errorf("largest DevTools message %d bytes (connection held: %v), want under 256 KiB", n, ok)
	}
	e.wantNextSeries(t)
	if n := e.log.count("connected"); n != 1 {
		t.Errorf("%d connects, want the first one only; the Browser's log:\n%s", n, strings.Join(e.log.logs, "\n"))
	}
}

// A page that makes Chrome send a DevTools message over the frame bound
// (here a request for a 1.5 MiB URL, which the Network event carries)
// ends the connection under the read, but that is the page's doing, not a
// lost sidecar: the read is that Series' sites.ErrTooLarge (unfetchable,
// never unreachable, which would pause every browser Lane), and the next
// Series' read dials again and succeeds, the hostile page's tab closed.
func TestPageMessageOverTheFrameBoundIsThatPagesTooLarge(t *testing.T) {
	t.Parallel()
	// The challenge only keeps the wait going until the overrun ends it.
	e := newOverrunEnv(t, 2*time.Minute)
	_, err := e.fetch("/longurl/7")
	if !errors.Is(err, sites.ErrTooLarge) || errors.Is(err, sites.ErrUnreachable) || sites.ClassifyError(err) != sites.Unfetchable {
		t.Fatalf("read of a page whose request passes the frame bound: %v (%s), want sites.ErrTooLarge (unfetchable)",
			err, sites.ClassifyError(err))
	}
	// Before any other read: the connection the page ended is dialled
	// again at once and the hostile page's tab is closed, so its timers
	// and sockets do not run on until the next read.
	if n := e.log.count("connected"); n != 2 {
		t.Errorf("%d connects after the read, want 2 (the connection the page ended is dialled again at once)", n)
	}
	// Chrome lists a closed tab a while after answering the close.
	n := e.pages(t)
	for deadline := time.Now().Add(time.Minute); n != e.before+1 && time.Now().Before(deadline); n = e.pages(t) {
		time.Sleep(20 * time.Millisecond)
	}
	if n != e.before+1 {
		t.Errorf("%d page targets, want one tab more than %d (the hostile page's tab closed)", n, e.before)
	}
	e.wantNextSeries(t)
	if n := e.log.count("connected"); n != 2 {
		t.Errorf("%d connects, want 2 (the next read uses the connection dialled after the overrun)", n)
	}
}

// Cloudflare's challenge options set by a script the probe cannot read
// (only the page's own world holds window._cf_chl_opt) still mark a
// challenge: the probe's isolated world does not hide it.
func TestChallengeGlobalOfThePagesWorldCounts(t *testing.T) {
	t.Parallel()
	// A challenge is refused only once it has been seen: the bound leaves a
	// loaded machine the time to load the page.
	e := newOverrunEnv(t, 20*time.Second)
	if _, err := e.fetch("/cfglobal/7"); !errors.Is(err, sites.ErrChallenge) {
		t.Fatalf("a page whose script set window._cf_chl_opt: %v, want sites.ErrChallenge", err)
	}
	e.wantNextSeries(t)
}
