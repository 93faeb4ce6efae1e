package client

import "time"

// Tracker is one of a Reader's trackers (GET /api/me/trackers): the user
// name a pull reads, the switches, whether a token is connected, and the
// state the settings card shows ("ok", "reconnect", "failing", "off")
// with its reason. The token itself is never answered.
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
	// Skipped are the Reader's bookmarks the tracker leaves alone: the ids
	// that count for the Reader (a Site's, the crosswalk's or their own)
	// name two or more media of the tracker's kind, so no pull or push
	// guesses; removing the wrong id (or the wrong Work member) ends it.
	Skipped []TrackerSkip `json:"skipped"`
}

// TrackerSkip is one bookmark a tracker skips, with the media its ids
// name.
type TrackerSkip struct {
	Site     string   `json:"site"`
	SeriesID string   `json:"series_id"`
	Title    string   `json:"title"`
	MediaIDs []string `json:"media_ids"`
}

// TrackersResponse is the body of GET /api/me/trackers.
type TrackersResponse struct {
	Trackers []Tracker `json:"trackers"`
}

// TrackerEntry is one entry of a Reader's tracker list that no bookmark
// matches ("not on a Site we read yet"): the tracker's media id, its
// title when known, and the count read there.
type TrackerEntry struct {
	MediaID  string `json:"media_id"`
	Title    string `json:"title,omitempty"`
	Progress int    `json:"progress"`
}

// TrackerStates counts every Reader's trackers by state (the admin
// summary and `mbctl notices`).
type TrackerStates struct {
	OK        int `json:"ok"`
	Reconnect int `json:"reconnect"`
	Failing   int `json:"failing"`
	Off       int `json:"off"`
}
