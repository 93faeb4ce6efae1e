package admin

import (
	"context"

	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// ReleaseFeedView is a Lane's release_feed object: its state word (waiting
// before the first read, ok after a good one, failing after a failed one),
// when the list was last read, and how many of the Site's Series the last
// read made due.
func ReleaseFeedView(st store.ReleaseFeedState, site store.ReleaseFeedSite) *client.LaneReleaseFeed {
	v := &client.LaneReleaseFeed{State: client.ReleaseFeedWaiting, LastReadAt: utc(st.LastReadAt), Hinted: site.Hinted}
	switch {
	case st.LastReadAt == nil:
	case st.LastOutcome == "ok": // releasefeed.OutcomeOK; admin reads the store, not the feed
		v.State = client.ReleaseFeedOK
	default:
		v.State = client.ReleaseFeedFailing
	}
	return v
}

// releaseFeedViews fills in every Lane view's release_feed (left nil when
// the feed is off): the feed hints every Site a followed story is on.
func (s *Service) releaseFeedViews(ctx context.Context, views []client.Lane) error {
	if !s.cfg.ReleaseFeed {
		return nil
	}
	st, err := s.cfg.Store.GetReleaseFeed(ctx)
	if err != nil {
		return err
	}
	bySite, err := s.cfg.Store.ReleaseFeedSites(ctx)
	if err != nil {
		return err
	}
	for i := range views {
		views[i].ReleaseFeed = ReleaseFeedView(st, bySite[views[i].Site])
	}
	return nil
}
