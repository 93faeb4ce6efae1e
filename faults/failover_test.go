package faults

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
)

// logHas reports whether a JSON log holds a line with msg and, when site
// is set, that "site" attribute.
func logHas(logs, msg, site string) bool {
	for _, line := range strings.Split(logs, "\n") {
		if !strings.Contains(line, msg) {
			continue
		}
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil {
			continue
		}
		if rec["msg"] == msg && (site == "" || rec["site"] == site) {
			return true
		}
	}
	return false
}

const msgLaneTaken = "Lane taken by this process"

// TestTwoBackendsFailover is scenario 5: two processes share a database;
// the one running the Lanes is SIGKILLed and the survivor takes them.
func TestTwoBackendsFailover(t *testing.T) {
	needSuite(t)
	t.Parallel()
	d := newDeployment(t, "")
	plain := []string{sitesim.MangaPill, sitesim.WeebCentral}
	seeded := map[string][]string{}
	for _, s := range plain {
		seeded[s] = d.seed(s, 2)
	}
	a := d.serve("A", nil)
	for _, s := range plain {
		if !eventually(15*time.Second, 100*time.Millisecond, func() bool { return logHas(a.logs.String(), msgLaneTaken, s) }) {
			t.Fatalf("A never took the %s Lane", s)
		}
	}
	b := d.serve("B", nil)
	// Give B a few lock retries (5 s apart): it must not take Lanes A holds.
	time.Sleep(6 * time.Second)
	for _, s := range plain {
		if logHas(b.logs.String(), msgLaneTaken, s) {
			t.Fatalf("B took the %s Lane while A held it", s)
		}
	}
	var before int
	_ = d.pool.QueryRow(context.Background(), `SELECT coalesce(max(id), 0) FROM poll_passes`).Scan(&before)

	a.kill()
	killed := time.Now()
	// A Forced Poll through the survivor gives the Lane a Series due now,
	// whoever runs it.
	cb := d.client(d.owner, b)
	for _, s := range plain {
		if _, err := cb.Force(context.Background(), s, seeded[s][0]); err != nil {
			t.Fatalf("force %s: %v", s, err)
		}
	}
	for _, s := range plain {
		ok := eventually(30*time.Second-time.Since(killed), 100*time.Millisecond, func() bool {
			return logHas(b.logs.String(), msgLaneTaken, s) &&
				d.count(`SELECT count(*) FROM poll_passes WHERE site = $1 AND id > $2 AND skip = ''`, s, before) >= 1
		})
		if !ok {
			t.Errorf("%s: B did not take the Lane and finish a pass within 30 s of the kill (taken: %v)\nsessions:\n%s", s, logHas(b.logs.String(), msgLaneTaken, s), d.activity())
		}
	}
	t.Logf("Lanes moved to B in %v", time.Since(killed).Round(100*time.Millisecond))
	if n := d.count(`SELECT count(*) FROM series WHERE force_poll_at IS NOT NULL AND site = ANY($1)`, plain); n != 0 {
		t.Errorf("%d Forced Polls still pending after the survivor's passes", n)
	}
}
