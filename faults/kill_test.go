package faults

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
)

// TestKillMidPass is scenario 2: SIGKILL of the backend in the middle of a
// pass, then a restart on the same database.
func TestKillMidPass(t *testing.T) {
	needSuite(t)
	t.Parallel()
	d := newDeployment(t, "")
	site := sitesim.MangaPill
	ids := d.seed(site, 3)

	b := d.serve("first", nil)
	var writes []progressWrite
	for i := 0; i < 5; i++ {
		writes = append(writes, d.postProgress(b, sitesim.WeebCentral, d.sim.SeriesID(sitesim.WeebCentral, 100+i), fmt.Sprint(10+i)))
	}
	// The first pass starts at once: the Site's listing, then one Series
	// every 10 s Gap. Kill between two reads, as soon as the first read has
	// written its Latest Chapter. Waiting only for its stamp would let the
	// kill land between the stamp and the write: that Series is then
	// tried (stamped), so by design it is not due again for a Rest, and
	// the scenario would be about a half-done read, not a cut pass. The
	// deadline covers startup, the listing read and one Gap.
	if !eventually(40*time.Second, 50*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM series WHERE site = $1 AND latest_number IS NOT NULL`, site) >= 1
	}) {
		t.Fatal("the Lane never wrote a Series' Latest Chapter")
	}
	b.kill()
	if n := d.passes(site, ""); n != 0 {
		t.Fatalf("the pass finished before the kill (%d pass rows): the scenario did not kill mid-pass", n)
	}
	checked := d.count(`SELECT count(*) FROM series WHERE site = $1 AND latest_checked_at IS NOT NULL`, site)
	untried := d.count(`SELECT count(*) FROM series WHERE site = $1 AND latest_checked_at IS NULL`, site)
	if untried < 1 || checked+untried != len(ids) {
		t.Fatalf("after the kill: %d checked, %d never checked of %d; want the untried still unstamped", checked, untried, len(ids))
	}

	restartedAt := time.Now()
	b2 := d.serve("restarted", nil)
	// The client retries what it cannot confirm: the same reads again, and
	// new ones.
	for i := 0; i < 5; i++ {
		writes = append(writes, d.postProgress(b2, sitesim.WeebCentral, d.sim.SeriesID(sitesim.WeebCentral, 100+i), fmt.Sprint(10+i)))
		// Not on the Lane's own Site: new Series there would lengthen the
		// pass the test waits for.
		writes = append(writes, d.postProgress(b2, sitesim.MangaDex, d.sim.SeriesID(sitesim.MangaDex, 200+i), fmt.Sprint(20+i)))
	}
	for _, w := range writes {
		if w.status != 200 {
			t.Errorf("progress write %v: want 200", w)
		}
	}
	// No stuck lock: the restarted process takes the Lane and reads every
	// untried Series, then writes its pass row.
	if !eventually(60*time.Second, 250*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM series WHERE site = $1 AND series_id = ANY($2) AND latest_checked_at IS NULL`, site, ids) == 0 &&
			d.passes(site, "") >= 1
	}) {
		t.Fatalf("after restart the Lane did not finish the untried Series within a minute (still unstamped: %d, pass rows: %d)\nsessions:\n%s",
			d.count(`SELECT count(*) FROM series WHERE site = $1 AND series_id = ANY($2) AND latest_checked_at IS NULL`, site, ids), d.passes(site, ""), d.activity())
	}
	t.Logf("restarted process finished the pass %v after its start", time.Since(restartedAt).Round(100*time.Millisecond))
	if !strings.Contains(b2.logs.String(), "Lane taken by this process") {
		t.Error("the restarted process never logged taking a Lane")
	}
	if n := d.count(`SELECT count(*) FROM series WHERE site = $1 AND series_id = ANY($2) AND latest_number IS NULL`, site, ids); n != 0 {
		t.Errorf("%d Series have no Latest Chapter after the restarted pass\nrestarted %s lines:\n%s", n, site, linesWith(b2.logs.String(), `"site":"`+site+`"`))
	}
	d.checkProgress(writes)
}
