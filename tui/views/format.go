package views

import (
	"fmt"
	"strings"
	"time"

	"mangabookmark/backend/safetext"
	"mangabookmark/client"
)

// Human renders a duration as the console shows ages and windows: "45s",
// "12m", "2h13m", "3d", "3d4h" (client.FormatDuration, the one writer the
// pages use too).
func Human(d time.Duration) string { return client.FormatDuration(d) }

// Ago renders how long before now t was ("3m ago"), or "never".
func Ago(now time.Time, t *time.Time) string {
	if t == nil || t.IsZero() {
		return "never"
	}
	return Human(now.Sub(*t)) + " ago"
}

// PassCounts is the compact outcome summary of a pass: "9/12 ok:5 new:1
// nf:1 err:1" (checked/due, then passOutcomes).
func PassCounts(p client.Pass) string {
	head := fmt.Sprintf("%d/%d", p.Checked, p.Due)
	if o := passOutcomes(p); o != "" {
		return head + " " + o
	}
	return head
}

// passOutcomes is the non-zero outcome counts of a pass, then any skip:
// "ok:5 new:1 nf:1 err:1 skip:paused".
func passOutcomes(p client.Pass) string {
	var parts []string
	for _, c := range []struct {
		n    int
		name string
	}{{p.OK, "ok"}, {p.New, "new"}, {p.NotFound, "nf"}, {p.NoChapter, "nc"}, {p.Unfetchable, "unf"},
		{p.Errors, "err"}, {p.Refused, "ref"}, {p.Unreachable, "unr"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%s:%d", c.name, c.n))
		}
	}
	if p.Skip != "" {
		parts = append(parts, "skip:"+p.Skip)
	}
	return strings.Join(parts, " ")
}

// LivePass renders the pass in flight: "pass: 12/45 read, 2m" (read so
// far of the Series due when it started, and how long it has run).
func LivePass(now time.Time, p client.LivePass) string {
	return fmt.Sprintf("pass: %d/%d read, %s", p.Checked, p.Due, Human(now.Sub(p.StartedAt)))
}

// PassFaulty reports whether a pass saw anything the Owner should look at.
func PassFaulty(p client.Pass) bool {
	return p.Errors+p.Refused+p.Unreachable+p.Unfetchable > 0 || p.Skip != "" ||
		(p.Due > 0 && p.Checked == 0)
}

// Window describes a Lane's pause and refuse windows with the time left:
// "paused 2h left: site migration", "refusing 10m left", "listing failed
// 3 in a row" (Rest carries on alone), "release feed failing" (MangaUpdates'
// release list: the hints stop, Rest carries on), or "".
func Window(now time.Time, l client.Lane) string {
	var parts []string
	if l.PausedUntil != nil && l.PausedUntil.After(now) {
		s := "paused " + Human(l.PausedUntil.Sub(now)) + " left"
		if l.PauseReason != "" {
			s += ": " + safetext.Show(l.PauseReason)
		}
		parts = append(parts, s)
	}
	if l.RefuseUntil != nil && l.RefuseUntil.After(now) {
		parts = append(parts, "refusing "+Human(l.RefuseUntil.Sub(now))+" left")
	}
	if l.Listing != nil && l.Listing.Failing {
		parts = append(parts, fmt.Sprintf("listing failed %d in a row", l.Listing.Failures))
	}
	if l.ReleaseFeed != nil && l.ReleaseFeed.State == client.ReleaseFeedFailing {
		parts = append(parts, "release feed failing")
	}
	return strings.Join(parts, "; ")
}

// Behind renders a behind-by in seconds, "-" when not behind.
func Behind(s int64) string {
	if s <= 0 {
		return "-"
	}
	return Human(time.Duration(s) * time.Second)
}
