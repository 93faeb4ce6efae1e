package views

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"mangabookmark/client"
	"mangabookmark/tui/styles"
)

func TestHuman(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		-time.Second: "0s", 45 * time.Second: "45s", 12*time.Minute + 59*time.Second: "12m",
		2*time.Hour + 13*time.Minute: "2h13m", 2 * time.Hour: "2h", 72 * time.Hour: "3d", 76 * time.Hour: "3d4h",
	} {
		if got := Human(d); got != want {
			t.Errorf("Human(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestScroll(t *testing.T) {
	t.Parallel()
	cases := []struct{ sel, off, capacity, n, want int }{
		{0, 0, 10, 5, 0},    // everything fits
		{12, 0, 10, 100, 3}, // moved below the window
		{3, 5, 10, 100, 3},  // moved above it
		{7, 5, 10, 100, 5},  // inside: stays
		{99, 0, 10, 100, 90},
		{5, 95, 10, 100, 5},
	}
	for _, c := range cases {
		if got := Scroll(c.sel, c.off, c.capacity, c.n); got != c.want {
			t.Errorf("Scroll(%d, %d, %d, %d) = %d, want %d", c.sel, c.off, c.capacity, c.n, got, c.want)
		}
	}
}

func TestStripScalesOldestLeft(t *testing.T) {
	t.Parallel()
	f := Frame{Width: 80, Height: 10, S: styles.Default()}
	passes := []client.Pass{{BehindByS: 700}, {BehindByS: 0}, {BehindByS: 350}} // newest first
	got := Strip(f, passes, 10)
	if !strings.HasPrefix(got, "▄") || !strings.HasSuffix(got, "█") || !strings.Contains(got, "▁") {
		t.Errorf("Strip = %q, want oldest (half) left and newest (peak) right", got)
	}
}

func TestEveryViewFillsItsFrame(t *testing.T) {
	t.Parallel()
	f := Frame{Width: 50, Height: 7, Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), S: styles.Default()}
	lanes := []client.Lane{{Site: "a-very-long-site-name-indeed", State: "running", BehindByS: 9000}}
	for name, out := range map[string]string{
		"lanes":   Lanes(f, lanes, 0, 0, Attention{}),
		"detail":  Detail(f, lanes[0], nil, 0),
		"failing": Failing(f, nil, 0, 0, FailingFilter{}, 0, 0),
		"notices": Notices(f, nil, &client.AdminWorks{Works: 123456, Links: 1234567}),
		"banner":  Banner(f, strings.Repeat("x", 100), f.Now, f.Now),
	} {
		lines := strings.Split(out, "\n")
		if name != "banner" && len(lines) != f.Height {
			t.Errorf("%s: %d lines, want %d", name, len(lines), f.Height)
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > f.Width {
				t.Errorf("%s line %d: %d cells, over %d", name, i, w, f.Width)
			}
		}
	}
}

// Window names a listing that keeps failing, beside the pause and refuse
// windows, and says nothing of one that failed fewer times than that.
func TestWindowSaysTheListingKeepsFailing(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	l := client.Lane{Listing: &client.LaneListing{Failures: 3, Failing: true}}
	if got := Window(now, l); got != "listing failed 3 in a row" {
		t.Errorf("Window = %q", got)
	}
	l.Listing = &client.LaneListing{Failures: 2}
	if got := Window(now, l); got != "" {
		t.Errorf("two failures: Window = %q, want nothing", got)
	}
}

// Window says the release feed is failing, and nothing of it otherwise.
func TestWindowSaysTheReleaseFeedFails(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	for state, want := range map[string]string{client.ReleaseFeedFailing: "release feed failing", client.ReleaseFeedOK: "", client.ReleaseFeedWaiting: ""} {
		l := client.Lane{ReleaseFeed: &client.LaneReleaseFeed{State: state}}
		if got := Window(now, l); got != want {
			t.Errorf("%s: Window = %q, want %q", state, got, want)
		}
	}
	if got := Window(now, client.Lane{}); got != "" {
		t.Errorf("feed off: Window = %q", got)
	}
}
