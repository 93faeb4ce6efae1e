package client

import "time"

// The states of a Reader's tracker (Tracker.State).
const (
	TrackerOK        = "ok"        // pulls (and pushes, with a token) work
	TrackerReconnect = "reconnect" // the tracker refused the token: pushes stop until a new one
	TrackerFailing   = "failing"   // the last pulls or pushes failed; Error says why
	TrackerOff       = "off"       // no user name and no token
)

// Tracker is one of a Reader's trackers (GET /api/me/trackers): the
// tracker account's user name, whether its list is pulled and Progress
// pushed, whether a token is held (never the token), its state, the last
// pull and push, and the last error's reason.
type Tracker struct {
	Service    string     `json:"service"`
	Username   string     `json:"username"`
	Pull       bool       `json:"pull"`
	Push       bool       `json:"push"`
	Connected  bool       `json:"connected"`
	State      string     `json:"state"`
	LastPullAt *time.Time `json:"last_pull_at"`
	LastPushAt *time.Time `json:"last_push_at"`
	Error      string     `json:"error"`
}

// TrackersResponse is the body of GET /api/me/trackers.
type TrackersResponse struct {
	Trackers []Tracker `json:"trackers"`
}

// TrackerEntry is an entry of a Reader's tracker list that no Series we
// read carries ("not on a Site we read yet"): the tracker's media id, its
// title when the tracker gave one, and the Reader's count there.
type TrackerEntry struct {
	MediaID  int64   `json:"media_id"`
	Title    string  `json:"title"`
	Progress float64 `json:"progress"`
}
