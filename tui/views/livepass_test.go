package views

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"mangabookmark/client"
	"mangabookmark/tui/styles"
)

// A Lane in its first long pass (no pass row yet) shows the pass in flight
// in the Lanes view, wide and narrow, and in its detail, with the holder's
// heartbeat; between passes it still says "no pass yet".
func TestPassInFlightShows(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	seen := now.Add(-5 * time.Second)
	live := client.Lane{Site: "weebcentral", State: client.StateRunning, Series: 45, Due: 33, EffectiveGapS: 10, GapS: 10, RestS: 3600,
		Pass: &client.LivePass{StartedAt: now.Add(-2 * time.Minute), Due: 45, Checked: 12}, LastSeenAt: &seen}
	idle := client.Lane{Site: "mangapill", State: client.StateIdle}
	for _, w := range []int{140, 80} {
		f := Frame{Width: w, Height: 10, Now: now, S: styles.Default()}
		out := ansi.Strip(Lanes(f, []client.Lane{live, idle}, 0, 0, Attention{}))
		lines := strings.Split(out, "\n")
		if !strings.Contains(lines[1], "pass: 12/45 read, 2m") || strings.Contains(lines[1], "no pass yet") {
			t.Errorf("width %d: the running Lane's row is %q, want the pass in flight", w, lines[1])
		}
		if !strings.Contains(lines[2], "no pass yet") {
			t.Errorf("width %d: the idle Lane's row is %q, want no pass yet", w, lines[2])
		}
		d := ansi.Strip(Detail(f, live, nil, 0))
		if !strings.Contains(d, "pass: 12/45 read, 2m") || !strings.Contains(d, "holder seen 5s ago") {
			t.Errorf("width %d: detail lacks the pass in flight or the heartbeat:\n%s", w, d)
		}
	}
}
