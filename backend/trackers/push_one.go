package trackers

import (
	"context"
	"fmt"
)

// Pushed is what one push did: the remote entry read before, whether a
// write went out, and the entry as the tracker holds it after.
type Pushed struct {
	Before Remote
	Wrote  bool
	After  Remote
}

// PushOne sends one push of progress on mediaID with the Reader's token
// (the outbox has coalesced the reads before it): it reads the
// remote entry first and writes only what Decide allows (never lower,
// PLANNING to CURRENT), so a count the Reader raised elsewhere is left
// alone. A media not on the Reader's list is added only when join is true
// (the Reader named that media themself); otherwise nothing is written,
// since a push acts only on the Reader's own evidence. ErrTokenRefused
// from either call means: turn the tracker to reconnect and drop the
// Reader's other pushes until a new token.
func PushOne(ctx context.Context, svc Service, token, mediaID string, progress float64, join bool) (Pushed, error) {
	return PushOneAs(ctx, svc, token, mediaID, progress, join, StatusNone)
}

// PushOneAs is PushOne for a Reader whose reading state of the media,
// set by hand, is the list status want (DecideAs): the write carries it,
// and the count still never falls.
func PushOneAs(ctx context.Context, svc Service, token, mediaID string, progress float64, join bool, want Status) (Pushed, error) {
	before, err := svc.Progress(ctx, token, mediaID)
	if err != nil {
		return Pushed{}, fmt.Errorf("trackers: push %s %s: read remote: %w", svc.Name(), mediaID, err)
	}
	w, ok := DecideAs(before, progress, want)
	if !ok || (!before.OnList && !join) {
		return Pushed{Before: before, After: before}, nil
	}
	after, err := svc.Save(ctx, token, mediaID, w)
	if err != nil {
		return Pushed{Before: before}, fmt.Errorf("trackers: push %s %s: save: %w", svc.Name(), mediaID, err)
	}
	return Pushed{Before: before, Wrote: true, After: after}, nil
}
