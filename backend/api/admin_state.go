package api

import (
	"time"

	"mangabookmark/backend/api/client"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
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
	// The browser Lanes' wake gate, with the Lanes' own thresholds.
	case in.browser && in.due < lanes.WakeGateDue && in.behindBy < lanes.WakeGateWait:
		return client.StateAsleep
	}
	return client.StateRunning
}

func adminAfter(t *time.Time, now time.Time) bool { return t != nil && t.After(now) }

// adminEffectiveGap is the pace a Lane of that many Series fetches at, as
// the Lanes reckon it (lanes.EffectiveGap for a Site with that Gap).
func adminEffectiveGap(gap time.Duration, series int) time.Duration {
	eff, _ := lanes.EffectiveGap(&sites.Site{Gap: gap}, series)
	return eff
}

// adminBehindBy is how long the oldest due Series has waited since it
// became due, by the Lanes' own reckoning (store.DueStats.BehindBy).
func adminBehindBy(now time.Time, oldestDueSince *time.Time) time.Duration {
	return store.DueStats{OldestDueSince: oldestDueSince}.BehindBy(now)
}
