package lanes

import (
	"context"
	"time"
)

// releaseHinted reports whether MangaUpdates' release feed
// (backend/releasefeed) made a Series of this Lane's Site due since the
// Lane last looked: such a hint opens the wake gate as the Lane's own
// listing hint does (ADR 0015, ADR 0030), so an asleep browser Lane reads
// the hinted Series within one Gap instead of holding it up to
// WakeGateWait. The feed itself made no Site request; the read it asks for
// is an ordinary read at the Lane's Gap. Each hint opens the gate once; one
// older than a Rest (a process started long after it) none. A store error
// reads as no hint (the hinted Series is due anyway; the gate opens by
// Rest as before).
func (m *Manager) releaseHinted(ctx context.Context, l *lane, now time.Time) bool {
	at, err := m.cfg.Store.ReleaseHintedAt(ctx, l.site.Name)
	if err != nil {
		l.log.Error("cannot read the release feed's last hint", "error", err)
		return false
	}
	if at == nil || !at.After(l.releaseSeen) || at.Before(now.Add(-l.site.Rest)) {
		return false
	}
	l.releaseSeen = *at
	return true
}
