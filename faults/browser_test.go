package faults

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/client"
)

// laneState is a Lane's state word from GET /api/admin/lanes ("" on error).
func laneState(c *client.Client, site string) string {
	ls, err := c.Lanes(context.Background())
	if err != nil {
		return ""
	}
	for _, l := range ls {
		if l.Site == site {
			return l.State
		}
	}
	return ""
}

// TestBrowserSidecarKilled is scenario 4: the Chromium sidecar dies under
// browser Lanes reading Sites behind a script challenge, then comes back.
//
// After the restart the browser Lanes stay browser_down: the browser-lost
// gate decays after 15 minutes of wall time in the real binary, which this
// suite cannot wait for. The decay itself is tested on the fake clock in
// backend/lanes (gates_test.go); here we assert what is observable in
// seconds: the state word, no failure rows for unreachable reads, the plain
// Lane unaffected, the process healthy across the restart.
func TestBrowserSidecarKilled(t *testing.T) {
	needSuite(t)
	needLong(t)
	chromiumtest.Require(t)
	t.Parallel()
	chrome := chromiumtest.Launch(t)
	d := newDeployment(t, "")
	browserSites := []string{sitesim.Kagane, sitesim.Comix}
	for _, s := range browserSites {
		d.sim.SetSite(s, sitesim.Behavior{Mode: sitesim.JSChallenge})
		d.seed(s, 6) // past the wake gate (five due)
	}
	plain := sitesim.WeebCentral
	d.seed(plain, 4)
	b := d.serve("browser", map[string]string{"BROWSER_WS_URL": chrome.HTTPURL()})
	oc := d.client(d.owner, b)

	// The browser passes the script challenge: a Latest Chapter is read.
	if !eventually(60*time.Second, 250*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM series WHERE site = ANY($1) AND latest_number IS NOT NULL`, browserSites) >= 1
	}) {
		t.Fatal("no browser read succeeded before the kill")
	}
	chrome.Kill()
	killed := time.Now()

	for _, s := range browserSites {
		if !eventually(45*time.Second, 250*time.Millisecond, func() bool { return laneState(oc, s) == client.StateBrowserDown }) {
			t.Errorf("%s: state %q after the sidecar died, want browser_down", s, laneState(oc, s))
		}
	}
	if !eventually(30*time.Second, 250*time.Millisecond, func() bool {
		return d.count(`SELECT coalesce(sum(unreachable), 0) FROM poll_passes WHERE site = ANY($1)`, browserSites) >= 1
	}) {
		t.Error("no pass counted an unreachable read")
	}
	// The plain Lane reads on, one Gap apart, after the kill.
	if !eventually(30*time.Second, 250*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM series WHERE site = $1 AND latest_checked_at > $2 AND latest_number IS NOT NULL`, plain, killed) >= 1
	}) {
		t.Error("the plain Lane stopped reading when the sidecar died")
	}

	if _, err := chrome.Restart(); err != nil {
		t.Fatal(err)
	}
	restarted := time.Now()
	// A Forced Poll of the plain Site is read at once across the restart.
	pid := d.sim.SeriesID(plain, 0)
	if _, err := oc.Force(context.Background(), plain, pid); err != nil {
		t.Fatal(err)
	}
	if !eventually(30*time.Second, 250*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM series WHERE site = $1 AND series_id = $2 AND latest_checked_at > $3 AND force_poll_at IS NULL`, plain, pid, restarted) == 1
	}) {
		t.Error("the plain Lane did not read a Forced Poll after the sidecar's restart")
	}
	if !b.alive() || b.status("/healthz") != 200 {
		t.Fatal("the backend does not answer after the sidecar's restart")
	}
	for _, s := range browserSites {
		if st := laneState(oc, s); st != client.StateBrowserDown {
			t.Errorf("%s: state %q within the 15-minute gate, want browser_down", s, st)
		}
	}
	// Unreachable reads write no failure rows (and a challenge passed by
	// the browser is no failure either).
	if n := d.count(`SELECT count(*) FROM poll_failures WHERE site = ANY($1)`, browserSites); n != 0 {
		t.Errorf("%d failure rows written for browser Sites while the sidecar was down", n)
	}
	if n := d.count(`SELECT count(*) FROM poll_failures WHERE site = $1`, plain); n != 0 {
		t.Errorf("%d failure rows for the healthy plain Site", n)
	}
}
