package api

import (
	"time"

	"mangabookmark/backend/api/client"
)

// Thresholds of the browser Lanes' wake gate (SPEC: Poll Lanes): Chrome
// stays asleep while fewer than adminWakeDue Series are due and the oldest has
// waited under adminWakeWait.
const (
	adminWakeDue  = 5
	adminWakeWait = 15 * time.Minute
)

// adminStateInput is everything the Lane state is derived from.
type adminStateInput struct {
	now           time.Time
	running       bool // a Lanes runtime exists and its poll switch is on
	browser       bool
	noBrowser     bool
	browserDown   *time.Time
	pausedUntil   *time.Time
	refuseUntil   *time.Time
	due           int
	forcedPending int
	behindBy      time.Duration
}

// adminLaneState derives the one word the console shows for a Lane. The order is
// the order of precedence: what stops the Lane outright wins over what merely
// says why it is quiet.
func adminLaneState(in adminStateInput) string {
	switch {
	case !in.running:
		return client.StateDisabled
	case adminAfter(in.pausedUntil, in.now):
		return client.StatePaused
	case adminAfter(in.refuseUntil, in.now):
		return client.StateRefusing
	case in.browser && in.noBrowser:
		return client.StateNoBrowser
	case in.browser && adminAfter(in.browserDown, in.now):
		return client.StateBrowserDown
	case in.due == 0:
		return client.StateIdle
	case in.browser && in.due < adminWakeDue && in.behindBy < adminWakeWait:
		return client.StateAsleep
	}
	return client.StateRunning
}

func adminAfter(t *time.Time, now time.Time) bool { return t != nil && t.After(now) }

// adminEffectiveGap is min(gap, 1h / series), never below one second: the pace
// a Lane of that many Series fetches at.
func adminEffectiveGap(gap time.Duration, series int) time.Duration {
	eff := gap
	if series > 0 {
		if per := time.Hour / time.Duration(series); per < eff {
			eff = per
		}
	}
	if eff < time.Second {
		eff = time.Second
	}
	return eff
}

// adminBehindBy is how long the oldest due Series has waited since it
// became due (the Lanes' own reckoning, store.DueStats.BehindBy).
func adminBehindBy(now time.Time, oldestDueSince *time.Time) time.Duration {
	if oldestDueSince == nil || !now.After(*oldestDueSince) {
		return 0
	}
	return now.Sub(*oldestDueSince)
}
