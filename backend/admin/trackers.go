package admin

import (
	"context"
	"fmt"

	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// TrackerStates counts every Reader's trackers by state: how many pull
// and push (ok), wait for a new token (reconnect), fail to pull (failing)
// or are set but switched off.
func (s *Service) TrackerStates(ctx context.Context) (client.TrackerStates, error) {
	c, err := s.cfg.Store.TrackerStateCounts(ctx)
	if err != nil {
		return client.TrackerStates{}, fmt.Errorf("admin: tracker states: %w", err)
	}
	return client.TrackerStates{OK: c[store.TrackerOK], Reconnect: c[store.TrackerReconnect],
		Failing: c[store.TrackerFailing], Off: c[store.TrackerOff]}, nil
}
