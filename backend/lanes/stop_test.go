package lanes_test

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// Stop ends every goroutine the Manager started: Lanes, lock owners, the
// wake listener and cover heals. Not parallel, so no other test's
// goroutines come and go during the check.
func TestStopLeavesNoGoroutines(t *testing.T) {
	srv, _ := coverServer(t)
	e := newEnv(t, nil, siteSpec{name: "a"}, siteSpec{name: "b", browser: true})
	e.sites["a"].Origin, e.sites["a"].Overridden = srv.URL, true
	e.seed(t, "a", 3, t0.Add(-time.Hour))
	e.seed(t, "b", 6, t0.Add(-time.Hour))
	e.ad["a"].def = okResult("1", srv.URL+"/cover.png")
	opts := goleak.IgnoreCurrent()
	e.clock.SetActors(2)
	e.m.Start(context.Background())
	waitFor(t, 30*time.Second, "both Lanes to read", func() bool {
		return len(e.ad["a"].readLog()) >= 3 && len(e.ad["b"].readLog()) >= 6
	})
	e.m.Stop()
	goleak.VerifyNone(t, opts)
}
