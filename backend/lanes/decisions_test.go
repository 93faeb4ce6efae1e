package lanes_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
)

// Tests that hold the seeds' decisions: each fails when its decision is
// broken (docs/adr/0008-watchdog-and-wake-rules.md lists the mutations).

// lockedBuffer is a goroutine-safe log sink.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The kill switch off starts no Lane: a running Manager with Series due
// takes no lock, writes no heartbeat or pass and reads nothing, even when
// woken, while a Manager with the switch on takes the Lane at once.
func TestKillSwitchOffStartsNoLane(t *testing.T) {
	t.Parallel()
	logs := &lockedBuffer{}
	off := newEnv(t, func(c *lanes.Config) {
		c.Enabled = false
		c.Log = slog.New(slog.NewTextHandler(logs, nil))
	}, siteSpec{name: "s"})
	ctx := context.Background()
	off.seed(t, "s", 3, t0.Add(-time.Hour))
	off.clock.SetActors(1)
	off.m.Start(ctx)
	off.m.Wake("s")
	if !strings.Contains(logs.String(), "polling is off") {
		t.Fatalf("no polling-off line in the log: %s", logs.String())
	}
	if rt := off.m.Runtime("s"); rt.Enabled {
		t.Fatal("the runtime says polling is on")
	}
	// The yardstick: the same wiring with the switch on reads within the
	// time the check below waits.
	on := newEnv(t, nil, siteSpec{name: "s"})
	on.seed(t, "s", 3, t0.Add(-time.Hour))
	on.clock.SetActors(1)
	began := time.Now()
	on.m.Start(ctx)
	waitFor(t, 30*time.Second, "the enabled Lane's first read", func() bool { return len(on.ad["s"].readLog()) > 0 })
	wait := 3*time.Since(began) + time.Second
	time.Sleep(wait)
	var holders, locks int
	_ = off.st.Pool().QueryRow(ctx, `SELECT count(*) FROM lane_holders`).Scan(&holders)
	_ = off.st.Pool().QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
		AND application_name LIKE 'mangabookmark-lane-lock%'`).Scan(&locks)
	if n := len(off.ad["s"].readLog()); n != 0 || len(off.passes(t, "s")) != 0 || holders != 0 || locks != 0 {
		t.Fatalf("with the switch off, after %v: %d reads, %d passes, %d heartbeats, %d lock connections",
			wait, n, len(off.passes(t, "s")), holders, locks)
	}
}

// The 1s floor is loud: a Site with more Series than an hour holds at one
// per second logs the floor warning once an hour, and a Site under it
// never does.
func TestGapFloorIsLoud(t *testing.T) {
	t.Parallel()
	logs := &lockedBuffer{}
	e := newEnv(t, func(c *lanes.Config) {
		c.Log = slog.New(slog.NewTextHandler(logs, nil))
		c.PassSpan = 3 * time.Second
	}, siteSpec{name: "big"}, siteSpec{name: "small"})
	e.seed(t, "big", 3601, t0)
	e.seed(t, "small", 3600, t0)
	const msg = "EFFECTIVE GAP AT THE FLOOR"
	for i := 0; i < 3; i++ {
		e.runPass(t, "big")
		e.runPass(t, "small")
	}
	if n := strings.Count(logs.String(), msg); n != 1 {
		t.Fatalf("floor warnings after three passes = %d, want 1:\n%s", n, logs.String())
	}
	e.clock.Advance(time.Hour)
	e.runPass(t, "big")
	if n := strings.Count(logs.String(), msg); n != 2 {
		t.Fatalf("floor warnings an hour later = %d, want 2", n)
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, msg) && (!strings.Contains(line, "level=WARN") || !strings.Contains(line, "site=big")) {
			t.Fatalf("floor warning not a warning about big: %s", line)
		}
	}
}

// A cover heal never runs inline: while a cover host hangs, the Lane's
// next read happens on time and the pass ends.
func TestSlowCoverHostDoesNotHoldTheLane(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	hit := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case hit <- struct{}{}:
		default:
		}
		<-release
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(pngBytes)
	}))
	t.Cleanup(srv.Close)
	// A client with no timeout of its own: the host hangs until released.
	e := newEnv(t, func(c *lanes.Config) { c.CoverClient = &http.Client{} }, siteSpec{name: "s"})
	t.Cleanup(func() { close(release) }) // before the Manager's Stop joins the heal
	e.sites["s"].Origin, e.sites["s"].Overridden = srv.URL, true
	e.seed(t, "s", 2, t0.Add(-time.Hour))
	e.ad["s"].set("1", okResult("1", srv.URL+"/cover.png"))
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.runPass(t, "s")
	}()
	select {
	case <-hit:
	case <-time.After(30 * time.Second):
		t.Fatal("the cover host was never asked")
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the pass waited on a hanging cover host")
	}
	if reads := e.ad["s"].readIDs(); len(reads) != 2 {
		t.Fatalf("reads %v while the cover hung, want both", reads)
	}
}
