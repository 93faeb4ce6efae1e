package admin_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/client"
)

// views is every Lane view by Site.
func (e *env) views(t *testing.T) map[string]client.Lane {
	t.Helper()
	ls, err := e.svc.LaneViews(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]client.Lane{}
	for _, l := range ls {
		out[l.Site] = l
	}
	if len(out) != len(admintest.SiteNames) {
		t.Fatalf("%d Lanes, want %d", len(out), len(admintest.SiteNames))
	}
	return out
}

// The Lane views derive state, counts, windows and the last pass from the
// seeded world (admintest.Seed names each Lane's situation).
func TestLaneViewsOfTheSeededWorld(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	by := e.views(t)
	want := map[string]string{"kagane": client.StateAsleep, "comix": client.StateRefusing, "mangadex": client.StatePaused,
		"weebcentral": client.StateRunning, "mangapill": client.StateIdle, "natomanga": client.StateNoBrowser}
	for site, st := range want {
		if by[site].State != st {
			t.Errorf("%s state %q, want %q", site, by[site].State, st)
		}
	}
	now := admintest.Now
	wc := by["weebcentral"]
	if wc.Series != 40 || wc.Due != 12 || wc.Failing != 6 || wc.ForcedPending != 0 ||
		wc.BehindByS != int64((2*time.Hour+12*time.Minute)/time.Second) {
		t.Errorf("weebcentral: series %d due %d failing %d forced %d behind %ds", wc.Series, wc.Due, wc.Failing, wc.ForcedPending, wc.BehindByS)
	}
	if wc.RestS != 3600 || wc.GapS != 10 || wc.EffectiveGapS != 10 || wc.Browser {
		t.Errorf("weebcentral pace: rest %d gap %d effective %d browser %v", wc.RestS, wc.GapS, wc.EffectiveGapS, wc.Browser)
	}
	if p := wc.LastPass; p == nil || !p.StartedAt.Equal(now.Add(-3*time.Minute)) || p.Checked != 9 || p.OK != 5 {
		t.Errorf("weebcentral last pass %+v", p)
	}
	if cx := by["comix"]; cx.RefuseUntil == nil || !cx.RefuseUntil.Equal(now.Add(10*time.Minute)) || cx.PausedUntil != nil || !cx.Browser {
		t.Errorf("comix: refuse %v pause %v browser %v", cx.RefuseUntil, cx.PausedUntil, cx.Browser)
	}
	if md := by["mangadex"]; md.PausedUntil == nil || !md.PausedUntil.Equal(now.Add(2*time.Hour)) || md.PauseReason != "site migration" {
		t.Errorf("mangadex pause %v %q", md.PausedUntil, md.PauseReason)
	}
	// Never-checked Series are due from created_at (30 days ago).
	if nm := by["natomanga"]; nm.Due != 8 || nm.BehindByS != int64(30*24*time.Hour/time.Second) {
		t.Errorf("natomanga: due %d behind %ds", nm.Due, nm.BehindByS)
	}
}

// A new bookmark (a Series never checked) opens a browser Lane's wake
// gate, as in the pass: kagane, asleep with two routine due Series, runs
// once a never-checked Series joins them.
func TestNewSeriesWakesAnAsleepLane(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if _, err := e.st.EnsureSeries(context.Background(), "kagane", "new-one", "https://kagane.test/series/new-one"); err != nil {
		t.Fatal(err)
	}
	if got := e.views(t)["kagane"].State; got != client.StateRunning {
		t.Errorf("kagane with a never-checked Series: %q, want running", got)
	}
}

// A Forced Poll of a Series not yet due counts as due, is pending, and
// wakes an asleep Lane.
func TestForcedPollIsDueAndWakes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if _, err := e.svc.Force(context.Background(), "kagane", "3"); err != nil {
		t.Fatal(err)
	}
	kg := e.views(t)["kagane"]
	if kg.State != client.StateRunning || kg.ForcedPending != 1 || kg.Due != 3 {
		t.Errorf("kagane after a Forced Poll: state %q forced %d due %d, want running 1 3", kg.State, kg.ForcedPending, kg.Due)
	}
}

// The Lanes' runtime decides what the store cannot know: a poll switch
// off is disabled.
func TestRuntimeDisablesALane(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.lanes.SetRuntime("weebcentral", admintest.DisabledRuntime())
	if got := e.views(t)["weebcentral"].State; got != client.StateDisabled {
		t.Errorf("weebcentral with the poll switch off: %q, want disabled", got)
	}
}
