package trackers

import (
	"math"
	"testing"
)

// The six statuses and the six reading states map one to one, both ways.
func TestStateOfAndStatusOf(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, st := range Statuses {
		s := StateOf(st)
		if s == "" || seen[s] || StatusOf(s) != st {
			t.Errorf("%s -> %q -> %s", st, s, StatusOf(s))
		}
		seen[s] = true
	}
	if StateOf("WATCHING") != "" || StatusOf("paused") != StatusNone || StatusOf("") != StatusNone {
		t.Error("an unknown status or state maps to something")
	}
}

func TestDecideAs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		remote   Remote
		progress float64
		want     Status
		write    Write
		push     bool
	}{
		{"ours replaces the status", Remote{OnList: true, Progress: 10, Status: StatusCurrent}, 12, StatusPaused, Write{12, StatusPaused}, true},
		{"a higher remote count stays", Remote{OnList: true, Progress: 30, Status: StatusCurrent}, 12, StatusDropped, Write{30, StatusDropped}, true},
		{"already both", Remote{OnList: true, Progress: 12, Status: StatusPaused}, 12, StatusPaused, Write{}, false},
		{"not on the list", Remote{}, 3, StatusPlanning, Write{3, StatusPlanning}, true},
		{"none is Decide", Remote{OnList: true, Progress: 0, Status: StatusPlanning}, 3, StatusNone, Write{3, StatusCurrent}, true},
		{"NaN pushes nothing", Remote{}, math.NaN(), StatusPaused, Write{}, false},
	}
	for _, tc := range cases {
		got, push := DecideAs(tc.remote, tc.progress, tc.want)
		if got != tc.write || push != tc.push {
			t.Errorf("%s: DecideAs = %+v, %v; want %+v, %v", tc.name, got, push, tc.write, tc.push)
		}
	}
}

// The pull plan names each matched bookmark's state from its entry.
func TestPlanPullStates(t *testing.T) {
	t.Parallel()
	p := PlanPull([]Entry{{MediaID: "1", Progress: 3, Status: StatusPaused}, {MediaID: "2", Progress: 3, Status: "ODD"}},
		[]Bookmark{{Site: "a", SeriesID: "x", MediaID: "1"}, {Site: "b", SeriesID: "y", MediaID: "2"}})
	if len(p.States) != 1 || p.States[0] != (StateSet{Site: "a", SeriesID: "x", State: "on_hold"}) {
		t.Fatalf("states %+v", p.States)
	}
}
