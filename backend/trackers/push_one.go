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

// PushOne sends one coalesced push with the Reader's token: it reads the
// remote entry first and writes only what Decide allows (never lower,
// PLANNING to CURRENT), so a count the Reader raised elsewhere is left
// alone. ErrTokenRefused from either call means: turn the tracker to
// reconnect and drop the Reader's other pushes until a new token.
func PushOne(ctx context.Context, svc Service, token string, p Pending) (Pushed, error) {
	before, err := svc.Progress(ctx, token, p.Key.MediaID)
	if err != nil {
		return Pushed{}, fmt.Errorf("trackers: push %s %s: read remote: %w", svc.Name(), p.Key.MediaID, err)
	}
	w, ok := Decide(before, p.Progress)
	if !ok {
		return Pushed{Before: before, After: before}, nil
	}
	after, err := svc.Save(ctx, token, p.Key.MediaID, w)
	if err != nil {
		return Pushed{Before: before}, fmt.Errorf("trackers: push %s %s: save: %w", svc.Name(), p.Key.MediaID, err)
	}
	return Pushed{Before: before, Wrote: true, After: after}, nil
}
