package trackers

import (
	"math"
	"testing"
)

func TestWhole(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   float64
		want int
		ok   bool
	}{
		{59.5, 59, true},
		{59.999, 59, true},
		{60, 60, true},
		{0.5, 0, true},
		{0, 0, true},
		{-1, 0, false},
		{-0.5, 0, false},
		{math.NaN(), 0, false},
		{math.Inf(1), 0, false},
		{MaxProgress + 1, 0, false},
	}
	for _, tc := range cases {
		got, ok := Whole(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Whole(%v) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestDecide(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		remote   Remote
		progress float64
		want     Write
		push     bool
	}{
		{"remote lower", Remote{OnList: true, Progress: 10, Status: StatusCurrent}, 12, Write{12, StatusCurrent}, true},
		{"fraction rounds down", Remote{OnList: true, Progress: 10, Status: StatusCurrent}, 59.5, Write{59, StatusCurrent}, true},
		{"fraction equal to remote", Remote{OnList: true, Progress: 59, Status: StatusCurrent}, 59.5, Write{}, false},
		{"remote equal", Remote{OnList: true, Progress: 12, Status: StatusCurrent}, 12, Write{}, false},
		{"remote higher is never lowered", Remote{OnList: true, Progress: 80, Status: StatusCurrent}, 12, Write{}, false},
		{"planning starts", Remote{OnList: true, Progress: 0, Status: StatusPlanning}, 3, Write{3, StatusCurrent}, true},
		{"not on list joins current", Remote{}, 3, Write{3, StatusCurrent}, true},
		{"completed kept", Remote{OnList: true, Progress: 100, Status: StatusCompleted}, 101, Write{101, StatusCompleted}, true},
		{"paused kept", Remote{OnList: true, Progress: 1, Status: StatusPaused}, 2, Write{2, StatusPaused}, true},
		{"repeating kept", Remote{OnList: true, Progress: 1, Status: StatusRepeating}, 2, Write{2, StatusRepeating}, true},
		{"zero pushes nothing", Remote{}, 0.5, Write{}, false},
		{"negative pushes nothing", Remote{}, -3, Write{}, false},
		{"NaN pushes nothing", Remote{}, math.NaN(), Write{}, false},
		{"absurd pushes nothing", Remote{}, 1e9, Write{}, false},
	}
	for _, tc := range cases {
		got, push := Decide(tc.remote, tc.progress)
		if got != tc.want || push != tc.push {
			t.Errorf("%s: Decide = %+v, %v; want %+v, %v", tc.name, got, push, tc.want, tc.push)
		}
	}
}
