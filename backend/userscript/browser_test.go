package userscript_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"

	"mangabookmark/backend/api"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/userscript"
)

const testKey = "userscript-test-token-key-0123456789abcdef"

// backend is the real API server on a fixed loopback address that the test
// can stop and start again, as a dropped connection and a recovery.
type backend struct {
	t       *testing.T
	addr    string
	handler http.Handler
	srv     *http.Server

	mu      sync.Mutex
	applied int // sum of "applied" over every POST /api/progress answer
	posts   int
}

func (b *backend) start() {
	b.t.Helper()
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ { // the port may linger a moment after Close
		if ln, err = net.Listen("tcp", b.addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		b.t.Fatalf("listen %s: %v", b.addr, err)
	}
	b.addr = ln.Addr().String()
	b.srv = &http.Server{Handler: http.HandlerFunc(b.serve)}
	go func() { _ = b.srv.Serve(ln) }()
}

func (b *backend) stop() {
	if b.srv != nil {
		_ = b.srv.Close()
		b.srv = nil
	}
}

// serve counts what POST /api/progress applied, so the test can tell a
// read was stored once however often the queue sent it.
func (b *backend) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/api/progress" {
		b.handler.ServeHTTP(w, r)
		return
	}
	rec := &recorder{ResponseWriter: w}
	b.handler.ServeHTTP(rec, r)
	var res api.ProgressResultJSON
	if json.Unmarshal(rec.body.Bytes(), &res) == nil {
		b.mu.Lock()
		b.applied += res.Applied
		b.posts++
		b.mu.Unlock()
	}
}

type recorder struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (r *recorder) Write(p []byte) (int, error) {
	r.body.Write(p)
	return r.ResponseWriter.Write(p)
}

// gmShim stands in for Tampermonkey: GM storage over localStorage and
// GM_xmlhttpRequest over a Go binding (so, like the real one, it is not
// bound by CORS). The Site table is extended with the simulator's host.
const gmShim = `(() => {
  window.__MB_TEST_SITES = %s;
  const pre = %s;
  for (const k in pre) if (localStorage.getItem('gm:' + k) === null) localStorage.setItem('gm:' + k, JSON.stringify(pre[k]));
  window.GM_getValue = (k, d) => { const v = localStorage.getItem('gm:' + k); return v === null ? d : JSON.parse(v); };
  window.GM_setValue = (k, v) => localStorage.setItem('gm:' + k, JSON.stringify(v));
  window.GM_xmlhttpRequest = (o) => {
    window.__mbFetch({ method: o.method, url: o.url, headers: o.headers || {}, data: o.data || '' })
      .then((r) => o.onload && o.onload({ status: r.status, responseText: r.text }),
            (e) => o.onerror && o.onerror({ error: String(e) }));
  };
})();`

// newPage connects to the Chromium at ws and opens a blank tab whose calls
// time out after timeout; the connection is closed when the test ends.
func newPage(t *testing.T, ws string, timeout time.Duration) *rod.Page {
	t.Helper()
	b := rod.New().ControlURL(ws)
	if err := b.Connect(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	page, err := b.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	return page.Timeout(timeout)
}

// installUserscript makes every document the page loads run gmShim (sites
// extends the Site table by host, nil for none; pre seeds GM storage) and
// then the userscript rendered for base. Expose __mbFetch first.
func installUserscript(t *testing.T, page *rod.Page, sites, pre map[string]string, base string) {
	t.Helper()
	sitesJSON, _ := json.Marshal(sites)
	preJSON, _ := json.Marshal(pre)
	if _, err := page.EvalOnNewDocument(fmt.Sprintf(gmShim, sitesJSON, preJSON)); err != nil {
		t.Fatal(err)
	}
	if _, err := page.EvalOnNewDocument(string(userscript.Render(userscript.Source, base))); err != nil {
		t.Fatal(err)
	}
}

// gmFetch performs a GM_xmlhttpRequest for the page.
func gmFetch(client *http.Client) func(gson.JSON) (any, error) {
	return func(req gson.JSON) (any, error) {
		var body io.Reader
		if d := req.Get("data").Str(); d != "" {
			body = strings.NewReader(d)
		}
		r, err := http.NewRequest(req.Get("method").Str(), req.Get("url").Str(), body)
		if err != nil {
			return nil, err
		}
		for k, v := range req.Get("headers").Map() {
			r.Header.Set(k, v.Str())
		}
		resp, err := client.Do(r)
		if err != nil {
			return nil, errors.New("network error")
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return map[string]any{"status": resp.StatusCode, "text": string(b)}, nil
	}
}

func TestUserscriptRecordsQueuesAndDrains(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped with -short")
	}
	ws, _ := chromiumtest.Start(t)
	sim := sitesim.New(sitesim.Config{SeriesPerSite: 3})
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Close)
	reg, err := registry.New(sim.Origins())
	if err != nil {
		t.Fatal(err)
	}
	st := dbtest.New(t)
	ctx := context.Background()
	svc, err := auth.New(auth.Config{Store: st, TokenKey: []byte(testKey)})
	if err != nil {
		t.Fatal(err)
	}
	token, _, err := svc.MintTokenRow(ctx, "200000000000000002", "Ann", "browser test")
	if err != nil {
		t.Fatal(err)
	}
	be := &backend{t: t, addr: "127.0.0.1:0"}
	be.start()
	t.Cleanup(be.stop)
	base := "http://" + be.addr
	be.handler, err = api.New(api.Config{Store: st, Sites: reg, Auth: svc, BaseURL: base, Userjs: userscript.Source})
	if err != nil {
		t.Fatal(err)
	}

	page := newPage(t, ws, 60*time.Second)
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	if _, err := page.Expose("__mbFetch", gmFetch(client)); err != nil {
		t.Fatal(err)
	}
	origin := sim.Origin("mangapill")
	host := strings.TrimPrefix(strings.TrimPrefix(origin, "http://"), "https://")
	installUserscript(t, page, map[string]string{host: "mangapill"},
		map[string]string{"mb_base_url": base, "mb_token": token}, base)

	id := sim.SeriesIDs("mangapill", 1)[0]
	reader, err := st.GetReaderByDiscordID(ctx, "200000000000000002")
	if err != nil {
		t.Fatal(err)
	}
	waitProgress := func(want string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		var got store.Progress
		for time.Now().Before(deadline) {
			got, err = st.GetProgress(ctx, reader.ID, "mangapill", id)
			if err == nil && got.Number == want {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("progress = %+v (%v), want %s", got, err, want)
	}
	waitStatus := func(want string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		got := ""
		for time.Now().Before(deadline) {
			if res, err := page.Eval(`() => { const e = document.getElementById('mb-status'); return e ? e.textContent : ''; }`); err == nil {
				got = res.Value.Str()
				if got == want {
					return
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("panel status %q, want %q", got, want)
	}
	chapter := func(code, n string) string {
		return fmt.Sprintf("%s/chapters/%s-%s/series-chapter-%s", origin, id, code, n)
	}

	// 1. A chapter page of the simulator: the read lands in the database.
	if err := page.Navigate(chapter("10105000", "105")); err != nil {
		t.Fatal(err)
	}
	waitProgress("105")
	waitStatus("✓")

	// 2. SPA navigation (history.pushState) records the next chapter.
	if _, err := page.Eval(`(u) => history.pushState({}, '', u)`, chapter("10105500", "105-5")); err != nil {
		t.Fatal(err)
	}
	waitProgress("105.5")

	// 3. Backend down: the read is queued and the panel says so.
	be.stop()
	if err := page.Navigate(chapter("10106000", "106")); err != nil {
		t.Fatal(err)
	}
	waitStatus("⟳ 1 pending")
	if p, _ := st.GetProgress(ctx, reader.ID, "mangapill", id); p.Number != "105.5" {
		t.Fatalf("progress moved while the backend was down: %s", p.Number)
	}
	queued, err := page.Eval(`() => JSON.parse(JSON.parse(localStorage.getItem('gm:mb_queue') || '"[]"')).length`)
	if err != nil || queued.Value.Int() != 1 {
		t.Fatalf("queue length %v (%v), want 1", queued, err)
	}

	// 4. Backend back: the queue drains and Progress is stored once.
	be.start()
	if _, err := page.Eval(`() => window.dispatchEvent(new Event('online'))`); err != nil {
		t.Fatal(err)
	}
	waitProgress("106")
	waitStatus("✓")
	be.mu.Lock()
	applied := be.applied
	be.mu.Unlock()
	if applied != 3 {
		t.Fatalf("reads applied %d times in all, want 3 (105, 105.5, 106 once each)", applied)
	}
	var rows int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM progress`).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("progress rows %d (%v), want 1", rows, err)
	}
}
