package lanes

import (
	"time"

	"mangabookmark/backend/store"
)

// Lane states: the one word that says what a Lane is doing or why it is
// quiet. The admin API shows them (client.State* are the same words) and a
// pass's gates are the same decision (see State).
const (
	StateDisabled    = "disabled"     // the poll switch is off here
	StatePaused      = "paused"       // the Owner's pause window is open
	StateRefusing    = "refusing"     // the refusal backoff is open
	StateNoBrowser   = "no_browser"   // a browser Site and no browser route
	StateBrowserDown = "browser_down" // the shared browser-lost flag is up
	StateIdle        = "idle"         // nothing is due
	StateAsleep      = "asleep"       // the wake gate holds a browser Lane
	StateRunning     = "running"      // Series are due and the Lane reads them
)

// States is every Lane state, in State's order of precedence: the one
// list. client.States, the /metrics state gauge and the docs' Lane-state
// table follow it (TestStatesAreTheLanesStates in client).
var States = []string{StateDisabled, StatePaused, StateRefusing, StateNoBrowser,
	StateBrowserDown, StateIdle, StateAsleep, StateRunning}

// StateInput is everything a Lane's state is derived from.
type StateInput struct {
	Now              time.Time
	Enabled          bool // the poll switch is on (a pass always runs enabled)
	Browser          bool // a browser Site
	NoBrowser        bool // no browser route is configured
	BrowserDownUntil *time.Time
	PausedUntil      *time.Time
	RefuseUntil      *time.Time
	Due              int
	BehindBy         time.Duration // how long the oldest due Series has waited
	// Urgent opens the wake gate: someone is waiting for a read (a Forced
	// Poll or a Series never checked is due) or the last pass stopped with
	// Series left due (Chrome was just used; see LeftDue).
	Urgent bool
}

// State derives a Lane's state. The order is the gate order of a pass and
// the order of precedence on the console: what stops the Lane outright
// wins over what merely says why it is quiet. runPass turns every state but
// running and idle into its skip value; the admin API shows the word.
func State(in StateInput) string {
	switch {
	case !in.Enabled:
		return StateDisabled
	case after(in.PausedUntil, in.Now):
		return StatePaused
	case after(in.RefuseUntil, in.Now):
		return StateRefusing
	case in.Browser && in.NoBrowser:
		return StateNoBrowser
	case in.Browser && after(in.BrowserDownUntil, in.Now):
		return StateBrowserDown
	case in.Due == 0:
		return StateIdle
	case in.Browser && !in.Urgent && in.Due < WakeGateDue && in.BehindBy < WakeGateWait:
		return StateAsleep
	}
	return StateRunning
}

// LeftDue reports whether a pass ran and stopped with Series still due:
// cut at its span or by a wake. The next pass then runs without the wake
// gate, so a split pass never strands its remainder.
func LeftDue(p store.Pass) bool {
	return p.Skip == SkipNone && p.Checked > 0 && p.Checked < p.Due
}

// stateSkip is the skip value of a pass stopped by a gate state.
var stateSkip = map[string]string{
	StatePaused:      SkipPaused,
	StateRefusing:    SkipRefusing,
	StateNoBrowser:   SkipNoBrowser,
	StateBrowserDown: SkipBrowserDown,
	StateAsleep:      SkipAsleep,
}

func after(t *time.Time, now time.Time) bool { return t != nil && t.After(now) }
