package client

import "time"

// The release feed's states on a Lane (LaneReleaseFeed.State).
const (
	ReleaseFeedWaiting = "waiting" // on, not read yet
	ReleaseFeedOK      = "ok"      // the last read was good
	ReleaseFeedFailing = "failing" // the last read failed; the next one backs off
)

// LaneReleaseFeed is what MangaUpdates' release feed does for a Lane
// (docs/api.md, "Ids and the crosswalk"): its state, when it last read the
// list, and how many of the Lane's Series its last read made due. A Lane
// carries nil when the feed is off.
type LaneReleaseFeed struct {
	State      string     `json:"state"`
	LastReadAt *time.Time `json:"last_read_at"`
	Hinted     int        `json:"hinted"`
}
