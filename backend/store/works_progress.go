package store

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A Reader's Progress on a Work is the highest of their Progress on any
// member, in Work numbers (works_numbers.go). A correction made on the Work
// (the Work page) is carried to every member the Reader bookmarks, each in
// its own numbers (the Work number minus the member's offset), so the
// Work's Progress is then exactly the number asked, even lower than before.

// workProgressSQL sets the Progress of the Reader's (@reader) bookmarked
// members of Work @work, as they see its members (readerMembersSQL), to
// the Work number @number less each member's offset; @forward true moves
// Progress forward only (Mark read). It answers how many bookmarks the
// Work holds.
var workProgressSQL = `
	WITH mem AS (
		` + readerMembersSQL("@reader", "= @work") + `
	), mine AS (
		SELECT mem.site, mem.series_id, greatest(@number::numeric - mem.off, 0) AS n FROM mem
		JOIN bookmarks b ON b.reader_id = @reader AND b.site = mem.site AND b.series_id = mem.series_id
	), up AS (
		INSERT INTO progress (reader_id, site, series_id, number, url, read_at, updated_at)
		SELECT @reader::bigint, site, series_id, n, '', @at::timestamptz, now() FROM mine
		ON CONFLICT (reader_id, site, series_id) DO UPDATE
			SET number = excluded.number, url = excluded.url, read_at = excluded.read_at, updated_at = now()
			WHERE NOT @forward OR excluded.number > progress.number
	)
	SELECT count(*) FROM mine`

// SetWorkProgress sets the Reader's Progress on a Work to number (Work
// numbers, a normalised decimal string), carried to each member they
// bookmark; forward true only moves it forward (Mark read on the Work).
// ErrNotFound when the Work holds none of the Reader's bookmarks.
func (s *Store) SetWorkProgress(ctx context.Context, readerID, workID int64, number string, forward bool, at time.Time) error {
	var n int
	if err := s.pool.QueryRow(ctx, workProgressSQL, namedArgs{
		"reader": readerID, "work": workID, "number": number, "at": at, "forward": forward}).Scan(&n); err != nil {
		return fmt.Errorf("store: set work progress: %w", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// maxOffset is the largest offset the store keeps (work_members' CHECK).
const maxOffset = 100000

// offsetRE is a member offset: a whole or decimal number, signed.
var offsetRE = regexp.MustCompile(`^[+-]?[0-9]{1,6}(\.[0-9]{1,4})?$`)

// ParseOffset reads a member offset as a Reader types it ("-100", "0.5"):
// the trimmed text when it is a number within the bound the store keeps,
// else an error that says what an offset is.
func ParseOffset(s string) (string, error) {
	s = strings.TrimSpace(s)
	if v, err := strconv.ParseFloat(s, 64); !offsetRE.MatchString(s) || err != nil || v > maxOffset || v < -maxOffset {
		return "", fmt.Errorf("an offset is a number between -%d and %d, such as -100 or 0.5, added to this member's chapter numbers", maxOffset, maxOffset)
	}
	return s, nil
}
