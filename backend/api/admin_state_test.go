package api

import (
	"testing"
	"time"
)

func TestAdminLaneState(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	later, earlier := now.Add(time.Minute), now.Add(-time.Minute)
	cases := []struct {
		name string
		in   adminStateInput
		want string
	}{
		{"no runtime", adminStateInput{due: 9}, "disabled"},
		{"paused beats refusing", adminStateInput{running: true, pausedUntil: &later, refuseUntil: &later, due: 9}, "paused"},
		{"pause over", adminStateInput{running: true, pausedUntil: &earlier, due: 9}, "running"},
		{"refusing", adminStateInput{running: true, refuseUntil: &later, due: 9}, "refusing"},
		{"refusal over, nothing due", adminStateInput{running: true, refuseUntil: &earlier}, "idle"},
		{"no browser", adminStateInput{running: true, browser: true, noBrowser: true, due: 9}, "no_browser"},
		{"no browser flag on a plain Site", adminStateInput{running: true, noBrowser: true, due: 9}, "running"},
		{"browser down", adminStateInput{running: true, browser: true, browserDown: &later, due: 9}, "browser_down"},
		{"browser down decayed", adminStateInput{running: true, browser: true, browserDown: &earlier, due: 9, behindBy: time.Hour}, "running"},
		{"browser gate plain Site", adminStateInput{running: true, browserDown: &later, due: 9}, "running"},
		{"idle", adminStateInput{running: true, browser: true}, "idle"},
		{"asleep", adminStateInput{running: true, browser: true, due: 4, behindBy: 14 * time.Minute}, "asleep"},
		{"awake: five due", adminStateInput{running: true, browser: true, due: 5, behindBy: time.Minute}, "running"},
		{"awake: waited 15m", adminStateInput{running: true, browser: true, due: 1, behindBy: 15 * time.Minute}, "running"},
		{"forced alone does not wake Chrome", adminStateInput{running: true, browser: true, due: 1, forcedPending: 1}, "asleep"},
		{"plain never asleep", adminStateInput{running: true, due: 1}, "running"},
	}
	for _, c := range cases {
		c.in.now = now
		if got := adminLaneState(c.in); got != c.want {
			t.Errorf("%s: state = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestAdminEffectiveGap(t *testing.T) {
	t.Parallel()
	cases := []struct {
		gap    time.Duration
		series int
		want   time.Duration
	}{
		{10 * time.Second, 0, 10 * time.Second},
		{10 * time.Second, 100, 10 * time.Second},
		{10 * time.Second, 720, 5 * time.Second},
		{10 * time.Second, 1_000_000, time.Second},
		{500 * time.Millisecond, 1, time.Second},
	}
	for _, c := range cases {
		if got := adminEffectiveGap(c.gap, c.series); got != c.want {
			t.Errorf("adminEffectiveGap(%v, %d) = %v, want %v", c.gap, c.series, got, c.want)
		}
	}
}

func TestAdminBehindBy(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	since := now.Add(-2 * time.Hour)
	future := now.Add(time.Minute)
	if got := adminBehindBy(now, &since); got != 2*time.Hour {
		t.Errorf("behind = %v, want 2h", got)
	}
	if got := adminBehindBy(now, &future); got != 0 {
		t.Errorf("behind of a Series due in the future = %v, want 0", got)
	}
	if got := adminBehindBy(now, nil); got != 0 {
		t.Errorf("behind with nothing due = %v, want 0", got)
	}
}
