package crosswalk

import (
	"log/slog"

	"mangabookmark/backend/config"
	"mangabookmark/backend/store"
)

// Name is MangaBaka's word in TRACKER_ORIGINS.
const Name = "mangabaka"

// FromConfig builds the process's Worker from the validated config:
// TRACKER_ORIGINS' mangabaka entry as the origin (MangaBaka's own API
// when unset), the wall clock, PerMinute. CROSSWALK=off gives nil: no
// Worker runs and nothing is sent to MangaBaka (the store still queues
// new ids, so turning it on later answers those too).
func FromConfig(c config.Config, st *store.Store, version string, log *slog.Logger) (*Worker, error) {
	if !c.Crosswalk {
		return nil, nil
	}
	return New(Config{Store: st, Client: NewClient(c.TrackerOrigins[Name], version, nil), Log: log})
}
