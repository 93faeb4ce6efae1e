package api

import (
	"time"

	"mangabookmark/backend/api/client"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// adminEffectiveGap is the pace a Lane of that many Series fetches at, as
// the Lanes reckon it (lanes.EffectiveGap for a Site with that Gap).
func adminEffectiveGap(gap time.Duration, series int) time.Duration {
	eff, _ := lanes.EffectiveGap(&sites.Site{Gap: gap}, series)
	return eff
}

// adminBehindBy is how long the oldest due Series has waited since it
// became due, by the Lanes' own reckoning (store.DueStats.BehindBy).
func adminBehindBy(now time.Time, oldestDueSince *time.Time) time.Duration {
	return store.DueStats{OldestDueSince: oldestDueSince}.BehindBy(now)
}

// adminLivePass is the pass in flight the holder last reported, shown only
// while no pass row newer than its start exists (the pass has not ended).
func adminLivePass(h store.Holder, last *store.Pass) *client.LivePass {
	if h.Pass == nil || (last != nil && !h.Pass.StartedAt.After(last.StartedAt)) {
		return nil
	}
	return &client.LivePass{StartedAt: h.Pass.StartedAt.UTC(), Due: h.Pass.Due, Checked: h.Pass.Checked}
}
