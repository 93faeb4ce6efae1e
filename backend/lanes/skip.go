package lanes

import "time"

// Skip values: why a pass returned before reading anything. One value per
// early-return path; SkipNone ("") when the pass ran, including a pass that
// found nothing due. They are stored in poll_passes.skip and never change.
const (
	SkipNone        = ""             // the pass ran (possibly with nothing due)
	SkipPaused      = "paused"       // the Owner's pause window is open
	SkipRefusing    = "refusing"     // the refusal backoff is open (two refusals in a pass)
	SkipNoBrowser   = "no_browser"   // a browser Site and no browser route configured
	SkipBrowserDown = "browser_down" // the shared browser-lost flag is up
	SkipStoreError  = "store_error"  // the Lane's own reads of the store failed
	SkipAsleep      = "asleep"       // wake gate: too little due to wake the browser
	SkipLockLost    = "lock_lost"    // this process no longer holds the Site's Lane
	SkipStopped     = "stopped"      // shutdown cut the pass short
)

// Pace constants of the pass (docs/adr/0002-poll-lanes.md).
const (
	// RefuseBackoff is how long two refusals in one pass stop a Lane.
	RefuseBackoff = 15 * time.Minute
	// BrowserLostWindow is how long a lost sidecar gates every browser Lane
	// before they probe again.
	BrowserLostWindow = 15 * time.Minute
	// WakeGateDue and WakeGateWait: a browser Lane leaves Chrome asleep while
	// fewer than WakeGateDue Series are due and the oldest has waited less
	// than WakeGateWait.
	WakeGateDue  = 5
	WakeGateWait = 15 * time.Minute
	// GapFloor is the shortest effective gap.
	GapFloor = time.Second
	// PassRetention is how long pass rows are kept.
	PassRetention = 14 * 24 * time.Hour
	// storeErrorPace is the wait after a pass its store reads failed.
	storeErrorPace = 30 * time.Second
	// pruneEvery bounds how often a Lane prunes its old pass rows.
	pruneEvery = time.Hour
	// floorLogEvery bounds how often a Lane repeats the floor warning.
	floorLogEvery = time.Hour
)
