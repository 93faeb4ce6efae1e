package lanes_test

import (
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/store"
)

// State is the one gate order: the pass's skips and the admin API's word.
func TestState(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	later, earlier := now.Add(time.Minute), now.Add(-time.Minute)
	type in = lanes.StateInput
	cases := []struct {
		name string
		in   in
		want string
	}{
		{"switch off", in{Due: 9}, "disabled"},
		{"paused beats refusing", in{Enabled: true, PausedUntil: &later, RefuseUntil: &later, Due: 9}, "paused"},
		{"pause over", in{Enabled: true, PausedUntil: &earlier, Due: 9}, "running"},
		{"refusing", in{Enabled: true, RefuseUntil: &later, Due: 9}, "refusing"},
		{"refusal over, nothing due", in{Enabled: true, RefuseUntil: &earlier}, "idle"},
		{"no browser", in{Enabled: true, Browser: true, NoBrowser: true, Due: 9}, "no_browser"},
		{"no browser flag on a plain Site", in{Enabled: true, NoBrowser: true, Due: 9}, "running"},
		{"browser down", in{Enabled: true, Browser: true, BrowserDownUntil: &later, Due: 9}, "browser_down"},
		{"browser down decayed", in{Enabled: true, Browser: true, BrowserDownUntil: &earlier, Due: 9, BehindBy: time.Hour}, "running"},
		{"browser gate plain Site", in{Enabled: true, BrowserDownUntil: &later, Due: 9}, "running"},
		{"idle", in{Enabled: true, Browser: true}, "idle"},
		{"asleep", in{Enabled: true, Browser: true, Due: 4, BehindBy: 14 * time.Minute}, "asleep"},
		{"awake: five due", in{Enabled: true, Browser: true, Due: 5, BehindBy: time.Minute}, "running"},
		{"awake: waited 15m", in{Enabled: true, Browser: true, Due: 1, BehindBy: 15 * time.Minute}, "running"},
		{"urgent opens the wake gate", in{Enabled: true, Browser: true, Due: 1, Urgent: true}, "running"},
		{"urgent does not open a pause", in{Enabled: true, Browser: true, Due: 1, Urgent: true, PausedUntil: &later}, "paused"},
		{"plain never asleep", in{Enabled: true, Due: 1}, "running"},
	}
	for _, c := range cases {
		c.in.Now = now
		if got := lanes.State(c.in); got != c.want {
			t.Errorf("%s: state = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestLeftDue(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p    store.Pass
		want bool
	}{
		{store.Pass{Due: 33, Checked: 30}, true},
		{store.Pass{Due: 3, Checked: 3}, false},
		{store.Pass{Due: 3}, false},
		{store.Pass{Due: 3, Checked: 1, Skip: lanes.SkipStopped}, false},
	} {
		if got := lanes.LeftDue(c.p); got != c.want {
			t.Errorf("LeftDue(%+v) = %v, want %v", c.p, got, c.want)
		}
	}
}
