package client

import (
	"slices"
	"time"
)

// Lane states, as the admin API reports them (the words of
// backend/lanes' State).
const (
	StateRunning     = "running"      // Series are due and the Lane is polling
	StateIdle        = "idle"         // nothing is due
	StatePaused      = "paused"       // the Owner paused the Lane
	StateRefusing    = "refusing"     // the Site held reads behind a challenge; backing off
	StateBrowserDown = "browser_down" // the browser sidecar was lost; backing off
	StateNoBrowser   = "no_browser"   // a browser Site with no sidecar configured
	StateAsleep      = "asleep"       // a browser Lane waiting for enough due work to wake Chrome
	StateDisabled    = "disabled"     // the poll switch is off (or no Lanes run in this process)
)

// States is every Lane state, in the Lanes' order of precedence (what
// stops a Lane outright first); /metrics gives each a series.
var States = []string{StateDisabled, StatePaused, StateRefusing, StateNoBrowser,
	StateBrowserDown, StateIdle, StateAsleep, StateRunning}

// FaultStates are the states that need the Owner (red on the console and
// the pages): the Site or the browser is failing the Lane, not a choice.
var FaultStates = []string{StateRefusing, StateBrowserDown, StateNoBrowser}

// IsFault says whether state is one of FaultStates.
func IsFault(state string) bool { return slices.Contains(FaultStates, state) }

// Outcomes lists the failure outcomes a failing Series can hold (the
// outcomes that write a failure row, in backend/sites' order).
var Outcomes = []string{"not_found", "no_chapter", "unfetchable", "errors"}

// Pass is one Lane pass: its counts of due, checked and each outcome.
type Pass struct {
	StartedAt   time.Time `json:"started_at"`
	FinishedAt  time.Time `json:"finished_at"`
	Due         int       `json:"due"`
	Checked     int       `json:"checked"`
	OK          int       `json:"ok"`
	New         int       `json:"new"`
	NotFound    int       `json:"not_found"`
	NoChapter   int       `json:"no_chapter"`
	Unfetchable int       `json:"unfetchable"`
	Errors      int       `json:"errors"`
	Refused     int       `json:"refused"`
	Unreachable int       `json:"unreachable"`
	Skip        string    `json:"skip"`
	BehindByS   int64     `json:"behind_by_s"`
	Listing     bool      `json:"listing"` // the pass read the Site's listing
	Hinted      int       `json:"hinted"`  // Series that listing read made due
}

// LivePass is the pass a Lane has in flight: when it started, how many
// Series were due then and how many it has read so far.
type LivePass struct {
	StartedAt time.Time `json:"started_at"`
	Due       int       `json:"due"`
	Checked   int       `json:"checked"`
}

// Lane is one Site's Poll Lane as the Owner sees it.
type Lane struct {
	Site          string       `json:"site"`
	Browser       bool         `json:"browser"`
	State         string       `json:"state"`
	RestS         int64        `json:"rest_s"`
	GapS          int64        `json:"gap_s"`
	EffectiveGapS int64        `json:"effective_gap_s"`
	Series        int          `json:"series"`
	Due           int          `json:"due"`
	BehindByS     int64        `json:"behind_by_s"`
	ForcedPending int          `json:"forced_pending"`
	Failing       int          `json:"failing"`
	RefuseUntil   *time.Time   `json:"refuse_until"`
	PausedUntil   *time.Time   `json:"paused_until"`
	PauseReason   string       `json:"pause_reason"`
	LastPass      *Pass        `json:"last_pass"`
	Pass          *LivePass    `json:"pass"`         // the pass in flight, nil between passes
	LastSeenAt    *time.Time   `json:"last_seen_at"` // the holder's last heartbeat
	Listing       *LaneListing `json:"listing"`      // nil for a Site without a listing
	// ReleaseFeed is the release feed's hint for this Lane; nil when the
	// feed is off.
	ReleaseFeed *LaneReleaseFeed `json:"release_feed"`
}

// LanesResponse is the body of GET /api/admin/lanes.
type LanesResponse struct {
	Lanes []Lane `json:"lanes"`
}

// PassesResponse is the body of GET /api/admin/lanes/{site}/passes.
type PassesResponse struct {
	Passes []Pass `json:"passes"`
}

// Failing is one Series whose reads keep failing.
type Failing struct {
	Site            string     `json:"site"`
	SeriesID        string     `json:"series_id"`
	Title           string     `json:"title"`
	URL             string     `json:"url"`
	Outcome         string     `json:"outcome"`
	FailingSince    time.Time  `json:"failing_since"`
	LatestCheckedAt *time.Time `json:"latest_checked_at"`
}

// FailingResponse is the body of GET /api/admin/failing. Failing holds at
// most the limit asked for (default 500, at most 10000), oldest failure
// first. Total counts every match up to 10000; 10001 means "more than that".
type FailingResponse struct {
	Failing []Failing `json:"failing"`
	Total   int       `json:"total"`
}

// FailingFilter narrows the failing worklist; zero fields match all.
type FailingFilter struct {
	Site    string
	Outcome string
	Limit   int // 0 = the server's default
}

// ForceResponse is the body of a 202 to a Forced Poll.
type ForceResponse struct {
	ForcePollAt time.Time `json:"force_poll_at"`
}

// PauseRequest pauses a Lane for ForS seconds or until Until (exactly one).
type PauseRequest struct {
	ForS   *int64     `json:"for_s,omitempty"`
	Until  *time.Time `json:"until,omitempty"`
	Reason string     `json:"reason,omitempty"`
}

// Notice is one open owner-notice episode; Site is "" for sidecar-down.
type Notice struct {
	Kind       string     `json:"kind"`
	Site       string     `json:"site"`
	Since      time.Time  `json:"since"`
	NotifiedAt *time.Time `json:"notified_at"`
}

// NoticesResponse is the body of GET /api/admin/notices.
type NoticesResponse struct {
	Notices []Notice `json:"notices"`
	// Readers is the Reader notices' delivery health; nil when the server
	// runs no notice service.
	Readers *ReaderNotices `json:"readers,omitempty"`
	// Trackers counts every Reader's trackers by state; nil from a server
	// without trackers.
	Trackers *TrackerStates `json:"trackers,omitempty"`
	// PhoneSync is the phone sync's figures; nil from a server without
	// phone sync.
	PhoneSync *PhoneSyncCounts `json:"phone_sync,omitempty"`
}

// AdminWorks is the body of GET /api/admin/works: how many Works and
// links exist and how they were made.
type AdminWorks struct {
	Works     int `json:"works"`      // Works with a member or a Reader's hand link
	Links     int `json:"links"`      // shared members
	ByID      int `json:"by_id"`      // members linked by a shared external id
	ByReaders int `json:"by_readers"` // members two Readers linked by hand
	HandLinks int `json:"hand_links"` // hand links one Reader holds, not confirmed yet
	Dissolved int `json:"dissolved"`  // Works left with fewer than two members
	Refused   int `json:"refused"`    // Series a Site's id did not link: the Work holds that Site already
	// OffsetResets: shared offsets set back to 0 when offsets became each
	// Reader's own (nobody knew whose they were); each Work page shows its own.
	OffsetResets int `json:"offset_resets"`
}

// AdminWork is a Work's shared members as the Owner sees them (the /admin
// Work view): each with its shared offset and how many Readers hold their
// own offset on it or unlinked it in their own library.
type AdminWork struct {
	ID      int64             `json:"id"`
	Members []AdminWorkMember `json:"members"`
}

// AdminWorkMember is one shared member of an AdminWork.
type AdminWorkMember struct {
	Site       string `json:"site"`
	SeriesID   string `json:"series_id"`
	Title      string `json:"title"`
	LinkedBy   string `json:"linked_by"`
	Offset     string `json:"offset"`
	OwnOffsets int    `json:"own_offsets"`
	OwnUnlinks int    `json:"own_unlinks"`
}
