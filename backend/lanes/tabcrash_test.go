package lanes_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sitesim"
)

// A Site page that crashes its tab (here: it allocates until its renderer
// runs out of memory, the renderer's heap capped small so that takes a
// moment) is that Series' unfetchable (issue 23 item 6): a failure row, the
// Series stamped so it goes to the back of the line, the rest of the pass
// read on through a fresh tab, and no browser gate, so the other browser
// Lanes keep reading. It was once taken for a lost sidecar: all three
// browser Lanes stopped for 15 minutes and the same Series came first again.
func TestPageCrashingItsTabIsThatSeriesUnfetchable(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t, chromiumtest.SmallPageHeap)

	const site = "kagane"
	var hog atomic.Pointer[string]
	var sim atomic.Pointer[sitesim.Sim]
	wrap := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := hog.Load(); id != nil && r.URL.Path == "/series/"+*id {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><head><title>Series</title></head><body><script>`+
				`const keep = []; for (;;) keep.push(new Array(1 << 20).fill(keep.length));`+
				`</script></body></html>`)
			return
		}
		sim.Load().Handler(site).ServeHTTP(w, r)
	}))
	t.Cleanup(wrap.Close)
	e := newRouteEnv(t, chrome.HTTPURL(), 15*time.Second, routeOpts{origins: map[string]string{site: wrap.URL}})
	sim.Store(e.sim)

	ids := e.seed(t, site, 3)
	hogID := ids[1]
	hog.Store(&hogID)
	others := map[string][]string{}
	for _, s := range browserSites[1:] {
		others[s] = e.seed(t, s, 2)
	}

	res, pace := e.pass(t, site)
	if res.Skip != lanes.SkipNone || res.Checked != 3 || res.OK != 2 || res.Unfetchable != 1 || res.Unreachable != 0 {
		t.Fatalf("pass across the crashing page: %+v, want two ok and one unfetchable", res)
	}
	if pace == lanes.BrowserLostWindow {
		t.Errorf("pace %v after the crash: the Lane waits as if the sidecar were lost", pace)
	}
	if o := e.failures(t, site)[hogID]; o != "unfetchable" {
		t.Errorf("failure row of the crashing Series: %q, want unfetchable", o)
	}
	if e.series(t, site, hogID).LatestCheckedAt == nil {
		t.Error("the crashing Series was put back as due: it would come first again at every pass")
	}
	e.wantRead(t, site, ids[0])
	e.wantRead(t, site, ids[2])
	for _, s := range browserSites {
		if rt := e.m.Runtime(s); rt.BrowserDownUntil != nil {
			t.Errorf("%s: browser gate closed until %v after one page crashed its tab", s, rt.BrowserDownUntil)
		}
	}
	for s, sids := range others {
		if res, _ := e.pass(t, s); res.Skip != lanes.SkipNone || res.Checked != len(sids) || res.OK != len(sids) {
			t.Errorf("%s after the crash: %+v, want %d ok", s, res, len(sids))
		}
	}
}
