package admin

import (
	"context"
	"fmt"

	"mangabookmark/client"
)

// SyncCounts are the phone sync's figures: Readers with a live sync key,
// uploads on the current UTC day, the stored libraries' bytes (inflated)
// and the Progress moved by sync, all time.
func (s *Service) SyncCounts(ctx context.Context) (client.PhoneSyncCounts, error) {
	c, err := s.cfg.Store.CountSync(ctx, s.cfg.Now())
	if err != nil {
		return client.PhoneSyncCounts{}, fmt.Errorf("admin: sync counts: %w", err)
	}
	return client.PhoneSyncCounts{ReadersSyncing: c.ReadersSyncing, UploadsToday: c.UploadsToday,
		BytesStored: c.BytesStored, ProgressMoved: c.ProgressMoved}, nil
}
