package faults

import (
	"context"
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store/storetest"
)

// logHasKind reports whether a JSON log holds a line with msg, site and
// kind.
func logHasKind(logs, msg, site, kind string) bool {
	for _, line := range strings.Split(logs, "\n") {
		if !strings.Contains(line, msg) {
			continue
		}
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == msg && rec["site"] == site && rec["kind"] == kind {
			return true
		}
	}
	return false
}

// TestHungHolderStall is the stall the watchdog exists for: the process
// holding a Lane is stopped with SIGSTOP (alive, its lock connection open,
// so PostgreSQL never frees the lock). The survivor sees the holder's
// heartbeat go stale, judges the stall (the silence is made 13h old by
// moving the hung holder's rows back, as 13 hours of SIGSTOP would), ends
// the hung holder's lock session and polls the Lane. Resumed, the hung
// process finds its lock gone and stays off the Lane.
func TestHungHolderStall(t *testing.T) {
	needSuite(t)
	t.Parallel()
	d := newDeployment(t, "")
	site := sitesim.MangaPill
	d.seed(site, 3)
	a := d.serve("A", nil)
	// A first pass is the listing read and three reads, one 10 s Gap
	// apart (30 s), plus startup on a loaded machine.
	const passWait = 60 * time.Second
	started := time.Now()
	ok := eventually(passWait, 100*time.Millisecond, func() bool {
		return logHas(a.logs.String(), msgLaneTaken, site) &&
			d.count(`SELECT count(*) FROM poll_passes WHERE site = $1 AND checked > 0`, site) > 0
	})
	if !ok {
		t.Fatalf("A never polled %s within %v (a listing read and three reads at a 10 s Gap)\nA's %s lines:\n%s", site, passWait, site, linesWith(a.logs.String(), `"site":"`+site+`"`))
	}
	t.Logf("A's first pass of %s finished %v after its start", site, time.Since(started).Round(100*time.Millisecond))
	b := d.serve("B", nil)
	time.Sleep(6 * time.Second) // B's lock retries: A's heartbeat is fresh
	if logHas(b.logs.String(), msgLaneTaken, site) {
		t.Fatalf("B took the %s Lane from a healthy A", site)
	}

	if err := a.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.cmd.Process.Signal(syscall.SIGCONT) })
	time.Sleep(500 * time.Millisecond) // a statement A sent before it stopped commits
	ctx := context.Background()
	// The stopped process's own rows move 13 hours back (its holder row
	// and passes), and its Series were last checked 14 hours ago.
	storetest.AgeLane(ctx, t, d.store(), storetest.LaneAge{Site: site, By: 13 * time.Hour})
	storetest.SetSeries(ctx, t, d.store(), storetest.SeriesSet{Site: site, CheckedAt: storetest.At(time.Now().Add(-14 * time.Hour))})
	stopped := time.Now()
	ok = eventually(passWait, 100*time.Millisecond, func() bool {
		return logHas(b.logs.String(), msgLaneTaken, site) &&
			d.count(`SELECT count(*) FROM poll_passes WHERE site = $1 AND checked > 0 AND finished_at > now() - interval '1 hour'`, site) > 0
	})
	if !ok {
		t.Fatalf("B did not take the Lane from the stopped A and poll it\nsessions:\n%s", d.activity())
	}
	t.Logf("B polled %s %v after A stopped", site, time.Since(stopped).Round(100*time.Millisecond))
	if !logHasKind(b.logs.String(), "owner notice episode opened", site, "stall") {
		t.Fatal("B took the Lane but never opened the stall episode")
	}
	if !eventually(15*time.Second, 100*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM owner_notices WHERE kind = 'stall'`) == 0
	}) {
		t.Error("the stall episode outlived B's passes")
	}

	if err := a.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if !eventually(30*time.Second, 100*time.Millisecond, func() bool {
		return logHas(a.logs.String(), "Lane lock lost between passes", site) ||
			logHas(a.logs.String(), "Lane lock lost mid-pass", site) ||
			logHas(a.logs.String(), "Lane lock lost", site)
	}) {
		t.Fatal("the resumed A never noticed it lost the Lane")
	}
	time.Sleep(6 * time.Second) // A's lock retries: B's heartbeat is fresh
	if n := strings.Count(a.logs.String(), msgLaneTaken); n != 6 {
		t.Errorf("A took Lanes %d times; want its six first takes only", n)
	}
	if !a.alive() || !b.alive() {
		t.Fatal("a backend exited")
	}
}

// linesWith is the lines of a log that hold s.
func linesWith(logs, s string) string {
	var out []string
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, s) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
