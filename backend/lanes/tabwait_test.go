package lanes_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
)

// Issue 14: a browser read that times out while it queues for the one tab
// never reached the page. It is no evidence about the Series: it counts as
// unreachable and writes no failure row.
func TestTabWaitTimeoutWritesNoFailureRow(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)
	e := newRouteEnv(t, chrome.HTTPURL(), 30*time.Second, routeOpts{})
	const site = "comix"
	ids := e.seed(t, site, 6)

	// Another read holds the tab on a page that does not answer.
	entered, release := make(chan struct{}, 1), make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case entered <- struct{}{}:
		default:
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hang.Close)
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	held := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := e.b.Fetch(ctx, sites.Request{Page: hang.URL + "/series/1"})
		held <- err
	}()
	<-entered

	// A Manager whose read bound ends while the read waits for the tab.
	m, err := lanes.New(lanes.Config{Store: e.st, Sites: e.reg, Plain: e.plain, Browser: e.b, Clock: e.clock,
		Log: slog.New(slog.DiscardHandler), Enabled: true, ReadTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.WaitCovers)
	e.clock.SetActors(1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	res, _ := m.RunPass(ctx, site)
	cancel()
	e.clock.SetActors(0)

	if res.Checked != 1 || res.Unreachable != 1 || res.Errors != 0 {
		t.Errorf("pass %+v, want one unreachable read and no errors", res)
	}
	if f := e.failures(t, site); len(f) != 0 {
		t.Errorf("failure rows %v after a read that never reached the page", f)
	}
	if s := e.series(t, site, ids[0]); s.LatestNumber != "" {
		t.Errorf("%s: Latest Chapter %q stored from a read that never ran", ids[0], s.LatestNumber)
	}
	// The pass stops at the unreachable read: the rest were never tried
	// and stay unstamped, due.
	for _, id := range ids[1:] {
		if s := e.series(t, site, id); s.LatestCheckedAt != nil {
			t.Errorf("%s: stamped %v, want still due", id, s.LatestCheckedAt)
		}
	}
	// The timed-out Series was put back: due again, first in line.
	if s := e.series(t, site, ids[0]); s.LatestCheckedAt != nil {
		t.Errorf("%s: stamped %v after a read that never reached the page, want still due", ids[0], s.LatestCheckedAt)
	}
	// A busy tab is not a lost sidecar: no browser Lane is held back.
	if rt := m.Runtime(site); rt.BrowserDownUntil != nil {
		t.Errorf("a busy tab raised the browser-lost flag until %v", rt.BrowserDownUntil)
	}
	if e.sim.Hits(site) != 0 {
		t.Errorf("the queued read reached the Site %d times", e.sim.Hits(site))
	}
	free()
	if err := <-held; err != nil {
		t.Logf("the holding read ended: %v", err) // its outcome is not under test
	}
}
