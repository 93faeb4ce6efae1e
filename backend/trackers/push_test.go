package trackers

import (
	"math"
	"reflect"
	"testing"
	"time"

	"mangabookmark/backend/lanes/lanestest"
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

func mustCoalescer(t *testing.T, cfg CoalescerConfig) *Coalescer {
	t.Helper()
	c, err := NewCoalescer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCoalescerFiveReadsOneWrite: five reads of one Series within a minute
// make one push, a minute after the first, with the latest number.
func TestCoalescerFiveReadsOneWrite(t *testing.T) {
	t.Parallel()
	clock := lanestest.NewFakeClock(t0)
	c := mustCoalescer(t, CoalescerConfig{Now: clock.Now})
	key := PushKey{Reader: 7, Service: "anilist", MediaID: "30002"}
	for _, n := range []float64{10, 11, 13, 12.5, 14} {
		if !c.Add(key, n) {
			t.Fatal("Add refused")
		}
		if got := c.Due(); len(got) != 0 {
			t.Fatalf("due inside the window: %+v", got)
		}
		clock.Advance(11 * time.Second)
	}
	if next, ok := c.Next(); !ok || !next.Equal(t0.Add(time.Minute)) {
		t.Fatalf("Next = %s, %v", next, ok)
	}
	clock.Advance(time.Minute - 55*time.Second - time.Nanosecond)
	if got := c.Due(); len(got) != 0 {
		t.Fatalf("due before the minute: %+v", got)
	}
	clock.Advance(time.Nanosecond)
	got := c.Due()
	want := []Pending{{Key: key, Progress: 14, First: t0}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Due = %+v, want %+v", got, want)
	}
	if c.Len() != 0 || len(c.Due()) != 0 {
		t.Fatal("a push was handed out twice")
	}
	c.Add(key, 15)
	if next, _ := c.Next(); !next.Equal(clock.Now().Add(time.Minute)) {
		t.Fatalf("a read after the push opens a new window: next %s", next)
	}
}

// TestCoalescerKeysApart: two Readers and two media make separate pushes,
// oldest first.
func TestCoalescerKeysApart(t *testing.T) {
	t.Parallel()
	clock := lanestest.NewFakeClock(t0)
	c := mustCoalescer(t, CoalescerConfig{Now: clock.Now, MaxPending: 3})
	a := PushKey{Reader: 1, Service: "anilist", MediaID: "1"}
	b := PushKey{Reader: 2, Service: "anilist", MediaID: "1"}
	d := PushKey{Reader: 1, Service: "anilist", MediaID: "2"}
	c.Add(b, 5)
	clock.Advance(time.Second)
	c.Add(a, 6)
	c.Add(d, 7)
	if c.Add(PushKey{Reader: 3, MediaID: "9"}, 1) {
		t.Fatal("a fourth key was held past MaxPending 3")
	}
	if !c.Add(a, 8) {
		t.Fatal("a held key's read was refused at the bound")
	}
	clock.Advance(time.Minute)
	got := c.Due()
	if len(got) != 3 || got[0].Key != b || got[1].Key != a || got[1].Progress != 8 || got[2].Key != d {
		t.Fatalf("Due = %+v", got)
	}
}

func TestNewCoalescerValidates(t *testing.T) {
	t.Parallel()
	for _, cfg := range []CoalescerConfig{{Window: -time.Second}, {Window: 2 * time.Hour}, {MaxPending: -1}} {
		if _, err := NewCoalescer(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}
