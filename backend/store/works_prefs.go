package store

import (
	"context"
	"errors"
	"fmt"
)

// A Reader's preferred Site for a Work (docs/adr/0021-works-link-by-ids.md,
// "Hold"): a notice of a number another member shows first is held up to
// HoldMinutes for the preferred member; whichever comes first, the
// preferred member's chapter or the end of the hold, sends the one notice.

// Bounds of a hold, in minutes (work_prefs' CHECK).
const (
	MinHoldMinutes     = 1
	MaxHoldMinutes     = 1440
	DefaultHoldMinutes = 60
)

// WorkPref is a Reader's preferred Site for a Work.
type WorkPref struct {
	Site        string
	HoldMinutes int
}

// ErrNotMemberSite is returned for a preferred Site on which the Work has
// no member.
var ErrNotMemberSite = errors.New("store: the Work has no member on that Site")

// SetWorkPref sets (or, with an empty site, clears) the Reader's
// preferred Site for a Work they hold. A hold outside the bounds is
// refused by the schema; callers check it first.
func (s *Store) SetWorkPref(ctx context.Context, readerID, workID int64, p WorkPref) error {
	if p.Site == "" {
		if _, err := s.pool.Exec(ctx, `DELETE FROM work_prefs WHERE reader_id = $1 AND work_id = $2`, readerID, workID); err != nil {
			return fmt.Errorf("store: set work pref: %w", err)
		}
		return nil
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO work_prefs (reader_id, work_id, site, hold_minutes)
		SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM work_members WHERE work_id = $2 AND site = $3)
		ON CONFLICT (reader_id, work_id) DO UPDATE SET site = excluded.site, hold_minutes = excluded.hold_minutes, updated_at = now()`,
		readerID, workID, p.Site, p.HoldMinutes)
	if err != nil {
		return fmt.Errorf("store: set work pref: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotMemberSite
	}
	return nil
}
