package userscript_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// world is the isolated JavaScript world the userscript runs in, as a
// userscript manager runs it: it shares the page's DOM but none of its
// globals, so a page script can neither read the GM storage nor call the
// GM functions.
const world = "mb_userscript"

// gmShim stands in for the userscript manager inside the isolated world:
// GM storage, GM_xmlhttpRequest (not bound by CORS, like the real one) and
// GM_registerMenuCommand all go through one binding to the Go side
// (gmHost), which keeps the storage across page loads. The userscript text
// is placed where %s stands, so the GM functions are its local names.
const gmShim = `(() => {
  const bind = window.__mbGM;
  if (typeof bind !== 'function') return;
  let seq = 0;
  const waiting = new Map();
  window.__mbGMReply = (id, ok, val) => {
    const w = waiting.get(id);
    if (!w) return;
    waiting.delete(id);
    if (ok) w[0](val); else w[1](new Error(String(val)));
  };
  const call = (op, arg) => new Promise((res, rej) => {
    const id = ++seq;
    waiting.set(id, [res, rej]);
    bind(JSON.stringify({ id, op, arg }));
  });
  const menu = {};
  window.__mbMenu = menu;
  call('load', null).then((S) => {
    const GM_getValue = (k, d) => (Object.prototype.hasOwnProperty.call(S, k) ? JSON.parse(S[k]) : d);
    const GM_setValue = (k, v) => { S[k] = JSON.stringify(v); call('set', { k, v: S[k] }); };
    const GM_xmlhttpRequest = (o) => {
      call('xhr', { method: o.method, url: o.url, headers: o.headers || {}, data: o.data || '' })
        .then((r) => o.onload && o.onload({ status: r.status, responseText: r.text }),
              (e) => o.onerror && o.onerror({ error: String(e) }));
    };
    const GM_registerMenuCommand = (name, fn) => { menu[name] = fn; };
    // unsafeWindow: the page's own globals named __* are read through a
    // synchronous DOM event to pageBridge, as a manager's unsafeWindow
    // would show them; other names are the isolated window's.
    const pageGlobal = (k) => {
      const el = document.documentElement;
      el.setAttribute('data-mb-unsafe-key', k);
      document.dispatchEvent(new CustomEvent('mb-unsafe-get'));
      const v = el.getAttribute('data-mb-unsafe-val');
      el.removeAttribute('data-mb-unsafe-key');
      el.removeAttribute('data-mb-unsafe-val');
      return v ? JSON.parse(v) : undefined;
    };
    const unsafeWindow = new Proxy(window, {
      get(w, k) {
        if (typeof k === 'string' && k.startsWith('__')) return pageGlobal(k);
        const v = w[k];
        return typeof v === 'function' ? v.bind(w) : v;
      },
      set(w, k, v) { w[k] = v; return true; },
    });
%s
  });
})();`

// pageBridge runs in the page's own world: it answers pageGlobal's
// question with the page global's value as JSON.
const pageBridge = `document.addEventListener('mb-unsafe-get', () => {
  const el = document.documentElement;
  let v;
  try { v = JSON.stringify(window[el.getAttribute('data-mb-unsafe-key')]); } catch (e) { v = undefined; }
  el.setAttribute('data-mb-unsafe-val', v === undefined ? '' : v);
});`

// gmHost is the Go side of the userscript manager for one page.
type gmHost struct {
	t      *testing.T
	page   *rod.Page
	client *http.Client

	offline atomic.Bool // GM_xmlhttpRequest fails as a dropped connection
	accept  atomic.Bool // the answer to confirm() and prompt()
	answer  atomic.Value
	ctxID   atomic.Int64 // the isolated world of the current document

	mu      sync.Mutex
	store   map[string]string // key -> JSON text
	dialogs []string          // every dialog's message, in order
	sent    []string          // every GM_xmlhttpRequest URL
	bodies  []string          // every POST /api/progress body, sent or not
}

// installUserscript makes every document the page loads run js (the
// rendered userscript) in the isolated world, with GM storage seeded from
// pre (string values).
func installUserscript(t *testing.T, page *rod.Page, pre map[string]string, js []byte) *gmHost {
	t.Helper()
	g := &gmHost{t: t, page: page, store: map[string]string{},
		client: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}}
	g.answer.Store("")
	for k, v := range pre {
		b, _ := json.Marshal(v)
		g.store[k] = string(b)
	}
	if err := (proto.RuntimeEnable{}).Call(page); err != nil {
		t.Fatal(err)
	}
	if err := (proto.PageEnable{}).Call(page); err != nil {
		t.Fatal(err)
	}
	if err := (proto.RuntimeAddBinding{Name: "__mbGM", ExecutionContextName: world}).Call(page); err != nil {
		t.Fatal(err)
	}
	go page.EachEvent(func(e *proto.RuntimeBindingCalled) {
		if e.Name == "__mbGM" {
			g.handle(e) // in order: storage writes must not overtake each other
		}
	}, func(e *proto.PageJavascriptDialogOpening) {
		go g.dialog(e)
	})()
	if _, err := (proto.PageAddScriptToEvaluateOnNewDocument{Source: pageBridge}).Call(page); err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf(gmShim, js)
	if _, err := (proto.PageAddScriptToEvaluateOnNewDocument{Source: src, WorldName: world}).Call(page); err != nil {
		t.Fatal(err)
	}
	return g
}

func (g *gmHost) dialog(e *proto.PageJavascriptDialogOpening) {
	g.mu.Lock()
	g.dialogs = append(g.dialogs, e.Message)
	g.mu.Unlock()
	// A prompt is the Reader typing the answer; a confirmation is answered
	// as accept says.
	accept := g.accept.Load() || e.Type == proto.PageDialogTypePrompt
	_ = proto.PageHandleJavaScriptDialog{Accept: accept, PromptText: g.answer.Load().(string)}.Call(g.page)
}

func (g *gmHost) handle(e *proto.RuntimeBindingCalled) {
	var call struct {
		ID  int             `json:"id"`
		Op  string          `json:"op"`
		Arg json.RawMessage `json:"arg"`
	}
	if json.Unmarshal([]byte(e.Payload), &call) != nil {
		return
	}
	var out any
	var err error
	switch call.Op {
	case "load":
		g.ctxID.Store(int64(e.ExecutionContextID))
		g.mu.Lock()
		m := map[string]string{}
		for k, v := range g.store {
			m[k] = v
		}
		g.mu.Unlock()
		out = m
	case "set":
		var kv struct{ K, V string }
		_ = json.Unmarshal(call.Arg, &kv)
		g.mu.Lock()
		g.store[kv.K] = kv.V
		g.mu.Unlock()
	case "xhr":
		go func() {
			out, err := g.xhr(call.Arg)
			g.reply(e.ExecutionContextID, call.ID, out, err)
		}()
		return
	}
	go g.reply(e.ExecutionContextID, call.ID, out, err)
}

func (g *gmHost) reply(ctx proto.RuntimeExecutionContextID, id int, out any, err error) {
	ok, val := true, []byte("null")
	if err != nil {
		ok, val = false, []byte(`"`+err.Error()+`"`)
	} else if out != nil {
		val, _ = json.Marshal(out)
	}
	_, _ = proto.RuntimeEvaluate{Expression: fmt.Sprintf("window.__mbGMReply(%d,%t,%s)", id, ok, val),
		ContextID: ctx}.Call(g.page)
}

func (g *gmHost) xhr(arg json.RawMessage) (any, error) {
	var req struct {
		Method, URL, Data string
		Headers           map[string]string
	}
	if err := json.Unmarshal(arg, &req); err != nil {
		return nil, err
	}
	g.mu.Lock()
	g.sent = append(g.sent, req.URL)
	if req.Method == http.MethodPost && strings.HasSuffix(req.URL, "/api/progress") {
		g.bodies = append(g.bodies, req.Data)
	}
	g.mu.Unlock()
	if g.offline.Load() {
		return nil, fmt.Errorf("network error")
	}
	var body io.Reader
	if req.Data != "" {
		body = strings.NewReader(req.Data)
	}
	r, err := http.NewRequest(req.Method, req.URL, body)
	if err != nil {
		return nil, err
	}
	for k, v := range req.Headers {
		r.Header.Set(k, v)
	}
	resp, err := g.client.Do(r)
	if err != nil {
		return nil, fmt.Errorf("network error")
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return map[string]any{"status": resp.StatusCode, "text": string(b)}, nil
}

// value is a GM value as the script stored it (JSON text decoded once), ""
// when unset.
func (g *gmHost) value(key string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var s string
	_ = json.Unmarshal([]byte(g.store[key]), &s)
	return s
}

// setJSON stores v as the script's setJSON does (JSON text in a GM
// string); the next document the page loads sees it.
func (g *gmHost) setJSON(key string, v any) {
	inner, err := json.Marshal(v)
	if err != nil {
		g.t.Fatal(err)
	}
	outer, _ := json.Marshal(string(inner))
	g.mu.Lock()
	g.store[key] = string(outer)
	g.mu.Unlock()
}

// posted is every read the script sent to POST /api/progress, in order.
func (g *gmHost) posted() []map[string]any {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []map[string]any
	for _, b := range g.bodies {
		var body struct {
			Reads []map[string]any `json:"reads"`
		}
		if json.Unmarshal([]byte(b), &body) == nil {
			out = append(out, body.Reads...)
		}
	}
	return out
}

// queue is the offline queue as stored.
func (g *gmHost) queue() []map[string]any {
	var q []map[string]any
	_ = json.Unmarshal([]byte(g.value("mb_queue")), &q)
	return q
}

func (g *gmHost) dialogMessages() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.dialogs...)
}

func (g *gmHost) sentURLs() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.sent...)
}

// menu runs a userscript menu command, as the manager's menu would.
func (g *gmHost) menu(name string) {
	g.t.Helper()
	expr := fmt.Sprintf("window.__mbMenu[%q]()", name)
	if _, err := (proto.RuntimeEvaluate{Expression: expr, ContextID: proto.RuntimeExecutionContextID(g.ctxID.Load())}).Call(g.page); err != nil {
		g.t.Fatalf("menu %q: %v", name, err)
	}
}
