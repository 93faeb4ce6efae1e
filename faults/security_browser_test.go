package faults

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store/storetest"
	"mangabookmark/client"
)

// hostileProxy stands in front of the simulator's comix origin and turns
// chosen Series pages into attacks on the Chrome sidecar reading them.
type hostileProxy struct {
	srv     *httptest.Server
	attacks map[string]string // series id -> attack name

	mu      sync.Mutex
	sent    []time.Time // when a page's timer sent each /tick, by its clock
	planted int         // pages whose outerHTML getter was in place (/planted)
}

func newHostileProxy(t *testing.T, upstream string, attacks map[string]string, devtools, local string) *hostileProxy {
	t.Helper()
	up, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	h := &hostileProxy{attacks: attacks}
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(up)
		r.Out.Host = r.In.Host // as the single-host director did: the Host asked for
		r.SetXForwarded()
		r.Out.Header.Del("Accept-Encoding") // bodies are rewritten as text
	}}
	rp.ModifyResponse = func(res *http.Response) error {
		attack := h.attackFor(res.Request.URL.Path)
		if attack == "" || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			return nil
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return err
		}
		inject := ""
		switch attack {
		case "download":
			res.Header.Set("Content-Disposition", `attachment; filename="planted.html"`)
		case "timers":
			inject = `<script>setInterval(() => fetch('/tick?t=' + Date.now(), {cache: 'no-store'}), 20);</script>`
		case "devtools-now":
			inject = `<script>location.href = ` + strconv.Quote(devtools) + `;</script>`
		case "devtools-late":
			inject = lateFlee(devtools)
		case "local-service":
			inject = `<script>location.href = ` + strconv.Quote(local) + `;</script>`
		case "outer-html":
			inject = plantedOuterHTML
		case "crash":
			// Allocates until its renderer dies (the sidecar's page heap
			// is capped small, so in a moment).
			inject = `<script>const keep = []; for (;;) keep.push(new Array(1 << 20).fill(keep.length));</script>`
		}
		body = bytes.Replace(body, []byte("<head>"), []byte("<head>"+inject), 1)
		res.Body = io.NopCloser(bytes.NewReader(body))
		res.ContentLength = int64(len(body))
		res.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/tick", func(w http.ResponseWriter, r *http.Request) {
		if ms, err := strconv.ParseInt(r.URL.Query().Get("t"), 10, 64); err == nil {
			h.mu.Lock()
			h.sent = append(h.sent, time.UnixMilli(ms))
			h.mu.Unlock()
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/planted", func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.planted++
		h.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.Handle("/", rp)
	h.srv = httptest.NewServer(mux)
	t.Cleanup(h.srv.Close)
	return h
}

// lateFlee sends the tab away at the moment the reader looks at the
// loaded page, so the document changes between that look and the read.
func lateFlee(target string) string {
	return `<script>(() => {
  const real = Object.getOwnPropertyDescriptor(Document.prototype, 'title');
  let fled = false;
  Object.defineProperty(document, 'title', {get() {
    if (document.readyState === 'complete' && !fled) {
      fled = true;
      location.href = ` + strconv.Quote(target) + `;
      const end = Date.now() + 400;
      while (Date.now() < end) {}
    }
    return real.get.call(document);
  }});
})();</script>`
}

// plantedOuterHTML redefines what a read in the page's own world would
// call to serialise the document: Element.prototype.outerHTML's getter
// answers 8 MiB of planted markup (over the 5 MiB body limit), made when
// first asked, and XMLSerializer lies too. The page then reports to the
// proxy (/planted) that its getter is in place.
const plantedOuterHTML = `<script>(() => {
  let planted = '';
  Object.defineProperty(Element.prototype, 'outerHTML', {configurable: true, get() {
    if (!planted) planted = '<html><body><h1>PLANTED</h1>' + 'x'.repeat(8 << 20) + '</body></html>';
    return planted;
  }});
  XMLSerializer.prototype.serializeToString = () => '<!DOCTYPE PLANTED>';
  fetch('/planted', {cache: 'no-store'});
})();</script>`

func (h *hostileProxy) attackFor(path string) string {
	for id, a := range h.attacks {
		if strings.Contains(strings.ToLower(path), "/"+id) {
			return a
		}
	}
	return ""
}

func (h *hostileProxy) plantedPages() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.planted
}

func (h *hostileProxy) ticksSentAfter(t time.Time) (after, all int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.sent {
		if s.After(t) {
			after++
		}
	}
	return after, len(h.sent)
}

// TestSecurityBrowserSidecar is issue 13's items 3 and 4 and issue 23's
// browser items end to end: the real binary reads comix through a real
// Chromium sidecar, and the comix pages of chosen Series attack the
// sidecar. A download must leave no file, a page's timers must stop once
// the read ends, and a page that sends the tab to the sidecar's DevTools
// port or a local service must not have that document read as the Site's
// (outcome errors, nothing stored from it). A page that redefines
// Element.prototype.outerHTML to answer 8 MiB changes nothing the read
// returns (the read runs in an isolated world: the Site's own page is read,
// ok). A page that allocates until its renderer dies is that Series'
// unfetchable; the next Series on the Lane is read through a fresh tab, no
// read counts as unreachable and no browser Lane turns browser_down.
func TestSecurityBrowserSidecar(t *testing.T) {
	needSuite(t)
	needLong(t) // eight browser reads one registry Gap (10 s) apart
	chromiumtest.Require(t)
	t.Parallel()
	// The page heap is capped small so the crashing page dies in a moment
	// rather than after gigabytes.
	chrome := chromiumtest.Launch(t, chromiumtest.SmallPageHeap)
	secret := newCanary(t, 200)
	d := newDeployment(t, "")

	site := sitesim.Comix
	// "" is a plain Series, read right after the page that crashes its tab.
	// timers last: its page would stay in the tab.
	order := []string{"download", "outer-html", "crash", "", "devtools-now", "devtools-late", "local-service", "timers"}
	ids := d.sim.SeriesIDs(site, len(order))
	attacks := map[string]string{}
	idOf := map[string]string{}
	for i, id := range ids {
		idOf[order[i]] = id
		if order[i] != "" {
			attacks[id] = order[i]
		}
	}
	proxy := newHostileProxy(t, d.sim.Origin(site), attacks, chrome.HTTPURL()+"/json/version", secret.srv.URL+"/internal/secret")
	d.seed(site, len(ids))
	// Created an hour ago, one second apart in attack order: past the wake
	// gate, read in that order.
	for i, id := range ids {
		storetest.SetSeries(context.Background(), t, d.store(), storetest.SeriesSet{Site: site, IDs: []string{id},
			CreatedAt: storetest.At(time.Now().Add(-time.Hour + time.Duration(i)*time.Second))})
	}
	origins := strings.Replace(d.sim.OriginsValue(), site+"="+d.sim.Origin(site), site+"="+proxy.srv.URL, 1)
	if !strings.Contains(origins, proxy.srv.URL) {
		t.Fatalf("SITE_ORIGINS %q does not name the proxy", origins)
	}
	b := d.serve("browser-sec", map[string]string{"BROWSER_WS_URL": chrome.HTTPURL(), "SITE_ORIGINS": origins})

	// Eight reads one Gap apart, one of them through a fresh renderer; a
	// loaded machine takes longer.
	if !eventually(5*time.Minute, 250*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM series WHERE site = $1 AND latest_checked_at IS NOT NULL`, site) == len(ids) &&
			d.count(`SELECT coalesce(sum(checked), 0) FROM poll_passes WHERE site = $1`, site) >= len(ids)
	}) {
		t.Fatal("the comix Lane did not read every hostile Series")
	}
	readEnd := time.Now()
	tried := len(attacks)
	oc := d.client(d.owner, b)

	// Item 3: no download on the sidecar's disk.
	if got := chrome.Downloads(); len(got) != 0 {
		t.Errorf("the sidecar saved %v from a Site's attachment", got)
	}
	// Item 3: the timers of the last page read stop with the read. Chrome
	// tears the old document down a moment after the tab moves on.
	time.Sleep(3500 * time.Millisecond)
	if after, all := proxy.ticksSentAfter(readEnd.Add(2500 * time.Millisecond)); after > 0 || all == 0 {
		t.Errorf("the timers page sent %d of its %d requests 2.5s after the last read (0 of some wanted)", after, all)
	}
	// Item 4: a page that left the Site is never read as the Site's page.
	for _, id := range []string{idOf["devtools-now"], idOf["devtools-late"], idOf["local-service"]} {
		var outcome string
		_ = d.pool.QueryRow(context.Background(), `SELECT outcome FROM poll_failures WHERE site = $1 AND series_id = $2`, site, id).Scan(&outcome)
		read := d.count(`SELECT count(*) FROM series WHERE site = $1 AND series_id = $2 AND latest_number IS NOT NULL`, site, id) == 1
		// Read before it left (the Site's own page, ok) or refused (errors).
		if ok := outcome == "errors" || outcome == "" && read; !ok {
			t.Errorf("%s (%s): failure outcome %q, Latest Chapter read %v; want errors, or ok from the Site's own page", id, attacks[id], outcome, read)
		}
	}
	if n := d.count(`SELECT count(*) FROM series WHERE site = $1 AND (title ILIKE '%webSocketDebuggerUrl%' OR title ILIKE '%Protocol-Version%'
		OR coalesce(latest_title, '') ILIKE '%webSocketDebugger%' OR coalesce(latest_url, '') ILIKE '%devtools%')`, site); n != 0 {
		t.Errorf("%d Series carry text of the sidecar's DevTools answer", n)
	}
	if n := d.count(`SELECT count(*) FROM series WHERE site = $1 AND (title ILIKE '%secret%' OR coalesce(latest_url, '') ILIKE '%/internal/%')`, site); n != 0 {
		t.Errorf("%d Series carry text of the local service", n)
	}
	// Issue 23: a page that redefines outerHTML is read as the Site's own
	// page, in full: the planted 8 MiB would be too large, the planted
	// markup no comix page.
	outer := idOf["outer-html"]
	if n := proxy.plantedPages(); n == 0 {
		t.Errorf("the outerHTML page never reported its getter in place: the check proves nothing")
	}
	if o := failureOutcome(d, site, outer); o != "" {
		t.Errorf("%s (outer-html): failure outcome %q; want the Site's own page read, ok", outer, o)
	}
	if n := d.count(`SELECT count(*) FROM series WHERE site = $1 AND series_id = $2 AND latest_number IS NOT NULL
		AND title NOT ILIKE '%planted%' AND title <> ''`, site, outer); n != 1 {
		t.Errorf("%s (outer-html): no Latest Chapter or title read from the Site's page", outer)
	}
	// Issue 23: a page that crashes its renderer is that Series'
	// unfetchable, and the Lane reads on.
	crash, next := idOf["crash"], idOf[""]
	if o := failureOutcome(d, site, crash); o != "unfetchable" {
		t.Errorf("%s (crash): failure outcome %q, want unfetchable", crash, o)
	}
	if o := failureOutcome(d, site, next); o != "" {
		t.Errorf("%s (the Series after the crash): failure outcome %q, want ok", next, o)
	}
	if n := d.count(`SELECT count(*) FROM series n, series c WHERE n.site = $1 AND c.site = $1 AND n.series_id = $2 AND c.series_id = $3
		AND n.latest_number IS NOT NULL AND n.latest_checked_at > c.latest_checked_at`, site, next, crash); n != 1 {
		t.Errorf("%s: the Series after the crashing page was not read after it", next)
	}
	if n := d.count(`SELECT coalesce(sum(unreachable), 0) FROM poll_passes WHERE site = $1`, site); n != 0 {
		t.Errorf("%d comix reads counted unreachable: a page was taken for a lost sidecar", n)
	}
	for _, s := range []string{sitesim.Kagane, sitesim.Comix, sitesim.Natomanga} {
		if st := laneState(oc, s); st == "" || st == client.StateBrowserDown {
			t.Errorf("%s: Lane state %q after the hostile pages, want anything but browser_down", s, st)
		}
	}
	t.Logf("hostile inputs tried: %d", tried)
}

// failureOutcome is the outcome of a Series' failure row, "" when it has
// none.
func failureOutcome(d *deployment, site, id string) string {
	d.t.Helper()
	var outcome string
	err := d.pool.QueryRow(context.Background(), `SELECT coalesce((SELECT outcome FROM poll_failures WHERE site = $1 AND series_id = $2), '')`, site, id).Scan(&outcome)
	if err != nil {
		d.t.Fatalf("failure row of %s %s: %v", site, id, err)
	}
	return outcome
}
