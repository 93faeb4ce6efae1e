package admin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// Bounds of a pause: long enough for any outage, short enough that a typo
// in a script does not silence a Lane for a lifetime.
const (
	MaxPause       = 366 * 24 * time.Hour
	MaxPauseReason = 500 // characters
)

// Errors of the acts; the faces answer 404 for both.
var (
	ErrNoSite   = errors.New("no such Site")
	ErrNoSeries = errors.New("no such Series")
)

// InputError is an act refused for what it was sent. Reason is a clause a
// person can act on ("\"for_s\" must be above 0, not -60"); both faces
// show it as it is, so the API and the pages word a refusal alike.
type InputError struct{ Reason string }

func (e *InputError) Error() string { return "admin: " + e.Reason }

// Force asks the Lane of site to read the Series at once (a Forced Poll)
// and wakes it; it returns when the Forced Poll was recorded.
func (s *Service) Force(ctx context.Context, site, seriesID string) (time.Time, error) {
	if _, err := s.site(site); err != nil {
		return time.Time{}, err
	}
	at, err := s.cfg.Store.ForcePoll(ctx, site, seriesID, s.cfg.Now())
	if errors.Is(err, store.ErrNotFound) {
		return time.Time{}, fmt.Errorf("admin: force %s %q: %w", site, seriesID, ErrNoSeries)
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("admin: force: %w", err)
	}
	s.wake(site)
	s.cfg.Log.Info("force", "site", site, "series_id", seriesID)
	return at, nil
}

// Pause pauses the Lane of site as req says (for ForS seconds or until
// Until, exactly one, at most MaxPause ahead; a reason of at most
// MaxPauseReason characters) and wakes it. A refused req is an
// *InputError and changes nothing.
func (s *Service) Pause(ctx context.Context, site string, req client.PauseRequest) error {
	if _, err := s.site(site); err != nil {
		return err
	}
	until, err := PauseUntil(req, s.cfg.Now())
	if err != nil {
		return err
	}
	reason := strings.TrimSpace(req.Reason)
	if _, err := s.cfg.Store.PauseLane(ctx, site, until, reason); err != nil {
		return fmt.Errorf("admin: pause: %w", err)
	}
	s.wake(site)
	s.cfg.Log.Info("pause", "site", site, "until", until.UTC())
	return nil
}

// Resume ends the Lane's pause (a Lane not paused stays as it is) and
// wakes it.
func (s *Service) Resume(ctx context.Context, site string) error {
	if _, err := s.site(site); err != nil {
		return err
	}
	if _, err := s.cfg.Store.ResumeLane(ctx, site); err != nil {
		return fmt.Errorf("admin: resume: %w", err)
	}
	s.wake(site)
	s.cfg.Log.Info("resume", "site", site)
	return nil
}

// PauseUntil validates a pause and returns its end, or an *InputError
// saying what is wrong.
func PauseUntil(req client.PauseRequest, now time.Time) (time.Time, error) {
	refuse := func(format string, args ...any) (time.Time, error) {
		return time.Time{}, &InputError{Reason: fmt.Sprintf(format, args...)}
	}
	if n := len([]rune(strings.TrimSpace(req.Reason))); n > MaxPauseReason {
		return refuse("the reason is %d characters, longer than %d", n, MaxPauseReason)
	}
	maxS := int64(MaxPause / time.Second)
	switch {
	case req.ForS != nil && req.Until != nil:
		return refuse(`send either "for_s" or "until", not both`)
	case req.ForS == nil && req.Until == nil:
		return refuse(`send "for_s" (seconds, above 0) or "until" (an RFC 3339 time in the future)`)
	case req.ForS != nil:
		if *req.ForS <= 0 {
			return refuse(`"for_s" must be above 0, not %d`, *req.ForS)
		}
		if *req.ForS > maxS {
			return refuse(`"for_s" must be at most %d (366 days)`, maxS)
		}
		return now.Add(time.Duration(*req.ForS) * time.Second), nil
	}
	if !req.Until.After(now) {
		return refuse(`"until" (%s) is not in the future`, req.Until.UTC().Format(time.RFC3339))
	}
	if req.Until.Sub(now) > MaxPause {
		return refuse(`"until" must be at most 366 days ahead`)
	}
	return *req.Until, nil
}

// site resolves a Site name, or an error wrapping ErrNoSite.
func (s *Service) site(name string) (*sites.Site, error) {
	si := s.cfg.Sites.Get(name)
	if si == nil {
		return nil, fmt.Errorf("admin: %q: %w", name, ErrNoSite)
	}
	return si, nil
}

// ErrNoMember is a Series that is no shared member of the Work named.
var ErrNoMember = errors.New("no such member")

// SetSharedOffset sets a Work member's shared offset for every Reader and
// clears the Readers' own offsets on it (docs/adr/0021-works-link-by-ids.md,
// "Offsets per Reader"). offset is store.ParseOffset's.
func (s *Service) SetSharedOffset(ctx context.Context, workID int64, site, seriesID, offset string) error {
	err := s.cfg.Store.SetSharedMemberOffset(ctx, workID, site, seriesID, offset)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("admin: shared offset of %s %q in Work %d: %w", site, seriesID, workID, ErrNoMember)
	}
	if err != nil {
		return fmt.Errorf("admin: shared offset: %w", err)
	}
	s.cfg.Log.Info("shared offset", "work_id", workID, "site", site, "series_id", seriesID, "offset", offset)
	return nil
}

// UnlinkShared takes a member out of a Work for every Reader
// (docs/adr/0021-works-link-by-ids.md, "Unlinks per Reader"): ids never
// link it to that Work again, and the Readers' own unlinks of it go.
func (s *Service) UnlinkShared(ctx context.Context, workID int64, site, seriesID string) error {
	err := s.cfg.Store.UnlinkShared(ctx, workID, site, seriesID)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("admin: shared unlink of %s %q from Work %d: %w", site, seriesID, workID, ErrNoMember)
	}
	if err != nil {
		return fmt.Errorf("admin: shared unlink: %w", err)
	}
	s.cfg.Log.Info("shared unlink", "work_id", workID, "site", site, "series_id", seriesID)
	return nil
}
