package cli

import (
	"fmt"
	"strings"
	"time"

	"mangabookmark/backend/api/client"
)

// stateColor maps a Lane state to the palette: faults red, holds amber,
// quiet states dim, work calm.
func stateColor(state string) string {
	switch state {
	case client.StateRefusing, client.StateBrowserDown, client.StateNoBrowser:
		return ansiFault
	case client.StatePaused:
		return ansiWarn
	case client.StateIdle, client.StateAsleep, client.StateDisabled:
		return ansiDim
	}
	return ansiCalm
}

// PassCounts is the compact outcome summary of a pass:
// "9/12 ok:5 new:1 nf:1 err:1" (checked/due, then the non-zero counts).
func PassCounts(p client.Pass) string {
	parts := []string{fmt.Sprintf("%d/%d", p.Checked, p.Due)}
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

// PassFaulty reports whether a pass saw anything the Owner should look at.
func PassFaulty(p client.Pass) bool {
	return p.Errors+p.Refused+p.Unreachable+p.Unfetchable > 0 || p.Skip != "" ||
		(p.Due > 0 && p.Checked == 0)
}

// Window describes a Lane's refuse or pause window with the time left:
// "refusing 10m left", "paused 2h left: site migration", or "".
func Window(now time.Time, l client.Lane) string {
	var parts []string
	if l.PausedUntil != nil && l.PausedUntil.After(now) {
		s := "paused " + Human(l.PausedUntil.Sub(now)) + " left"
		if l.PauseReason != "" {
			s += ": " + l.PauseReason
		}
		parts = append(parts, s)
	}
	if l.RefuseUntil != nil && l.RefuseUntil.After(now) {
		parts = append(parts, "refusing "+Human(l.RefuseUntil.Sub(now))+" left")
	}
	return strings.Join(parts, "; ")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func behindText(s int64) string {
	if s <= 0 {
		return "-"
	}
	return Human(time.Duration(s) * time.Second)
}
