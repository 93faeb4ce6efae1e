package faults

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
)

// TestPostgresRestart is scenario 1: the database stops under a serving
// backend and comes back.
func TestPostgresRestart(t *testing.T) {
	needSuite(t)
	needLong(t)
	t.Parallel()
	const pw = "pg-restart-pw-canary-a41b"
	pg := newPGCluster(t)
	d := newDeployment(t, pg.url(pw))
	d.secrets = append(d.secrets, pw)
	site := sitesim.MangaPill
	ids := d.seed(site, 3)
	b := d.serve("pg", nil)

	var writes []progressWrite
	n := 0
	write := func() progressWrite {
		n++
		w := d.postProgress(b, sitesim.WeebCentral, d.sim.SeriesID(sitesim.WeebCentral, 100+n), fmt.Sprint(n))
		writes = append(writes, w)
		return w
	}
	for i := 0; i < 5; i++ {
		if w := write(); w.status != 200 {
			t.Fatalf("progress before the outage: %v", w)
		}
	}
	// Stop mid-pass: after the Lane's first read.
	if !eventually(20*time.Second, 100*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM series WHERE site = $1 AND latest_checked_at IS NOT NULL`, site) >= 1
	}) {
		t.Fatal("the Lane never read")
	}
	d.pool.Reset()
	pg.stop()
	if !eventually(15*time.Second, 200*time.Millisecond, func() bool { return b.status("/healthz") == 503 }) {
		t.Fatalf("/healthz answered %d with the database down, want 503", b.status("/healthz"))
	}
	// Writes for longer than the server's 10 s authentication cache, so
	// both cached and uncached tokens meet the outage.
	var outage []progressWrite
	for i := 0; i < 15; i++ {
		w := write()
		outage = append(outage, w)
		switch {
		case w.status < 500 || w.status > 599:
			t.Errorf("progress during the outage: %v, want a retryable 5xx (never 2xx or 4xx)", w)
		case w.status != 503:
			t.Errorf("progress during the outage: %v, want 503 (no 5xx but 503 while the database is down)", w)
		}
		time.Sleep(time.Second)
	}
	// Every door while the database is down: no 5xx but 503, no crash.
	f := newFuzzer(d, uint64(time.Now().UnixNano()))
	hc := &http.Client{Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	statuses := map[int]int{}
	for i := 0; i < 300; i++ {
		st, desc := f.one(b.url, hc)
		statuses[st]++
		if st == 0 || (st >= 500 && st != 503) {
			t.Errorf("with the database down: %d for %s", st, desc)
		}
	}
	t.Logf("requests during the outage: statuses %v; progress writes %v", statuses, outage)
	if !b.alive() {
		t.Fatal("the backend died with its database")
	}

	pg.start()
	restarted := time.Now()
	if !eventually(30*time.Second, 200*time.Millisecond, func() bool { return b.status("/healthz") == 200 }) {
		t.Fatalf("/healthz answered %d after the restart, want 200", b.status("/healthz"))
	}
	t.Logf("/healthz 200 again %v after the restart", time.Since(restarted).Round(100*time.Millisecond))
	// The client retries what failed, and writes on.
	for _, w := range outage {
		r := d.postProgress(b, w.site, w.seriesID, w.number)
		writes = append(writes, r)
		if r.status != 200 {
			t.Errorf("retried progress after the restart: %v", r)
		}
	}
	for i := 0; i < 5; i++ {
		if w := write(); w.status != 200 {
			t.Errorf("progress after the restart: %v", w)
		}
	}

	// Lanes resume within a minute: a Forced Poll is read and a pass row
	// written after the restart.
	oc := d.client(d.owner, b)
	if !eventually(20*time.Second, 500*time.Millisecond, func() bool {
		_, err := oc.Force(context.Background(), site, ids[0])
		return err == nil
	}) {
		t.Fatal("force never accepted after the restart")
	}
	if !eventually(time.Minute-time.Since(restarted), 250*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM poll_passes WHERE site = $1 AND skip = '' AND checked >= 1 AND started_at > $2`, site, restarted) >= 1 &&
			d.count(`SELECT count(*) FROM series WHERE site = $1 AND series_id = $2 AND force_poll_at IS NULL AND latest_checked_at > $3`, site, ids[0], restarted) == 1
	}) {
		t.Fatalf("no pass of %s started after the restart read the Forced Poll within a minute", site)
	}
	t.Logf("Lane resumed: pass row %v after the restart", time.Since(restarted).Round(100*time.Millisecond))
	rows, _ := d.pool.Query(context.Background(), `SELECT started_at, finished_at, due, checked, ok, errors, skip FROM poll_passes WHERE site = $1 ORDER BY id`, site)
	for rows.Next() {
		var s, f time.Time
		var due, checked, ok, errs int
		var skip string
		_ = rows.Scan(&s, &f, &due, &checked, &ok, &errs, &skip)
		t.Logf("pass %s..%s due %d checked %d ok %d errors %d skip %q", s.Format("15:04:05.000"), f.Format("15:04:05.000"), due, checked, ok, errs, skip)
	}
	rows.Close()
	t.Logf("restarted %s", restarted.UTC().Format("15:04:05.000"))
	d.checkProgress(writes)
}
