package store

import (
	"context"
	"fmt"
)

// WorkCounts are the Owner's totals of Works and their links
// (docs/adr/0021-works-link-by-ids.md): how many Works have members, how
// many memberships were made by a shared external id and how many by two
// Readers' hand links, and the hand links still held by one Reader only.
type WorkCounts struct {
	Works     int // Works with a member or a Reader's hand link
	Members   int // shared memberships (work_members)
	ByID      int // of them, linked by an external id
	ByReaders int // of them, confirmed hand links
	HandLinks int // hand links not confirmed yet (one Reader's)
	Dissolved int // Works dissolved with fewer than two members, kept for their unlinks
	// Refused are the Series whose Sites' ids were not linked because the
	// Work holds a Series on that Site already (work_link_refusals): the
	// Owner looks at them.
	Refused int
	// OffsetResets are the shared offsets migration 0018 set back to 0
	// (work_offset_resets): nobody knew whose they were. Each Work page
	// shows its own, for whoever set one to set it again.
	OffsetResets int
}

// CountWorks returns the Owner's totals of Works and links.
func (s *Store) CountWorks(ctx context.Context) (WorkCounts, error) {
	var c WorkCounts
	err := s.pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM (SELECT work_id FROM work_members UNION SELECT work_id FROM work_hand_links) w),
		(SELECT count(*) FROM work_members),
		(SELECT count(*) FROM work_members WHERE linked_by LIKE 'id:%'),
		(SELECT count(*) FROM work_members WHERE linked_by = 'reader'),
		(SELECT count(*) FROM work_hand_links),
		(SELECT count(DISTINCT work_id) FROM work_former_members),
		(SELECT count(*) FROM (SELECT DISTINCT site, series_id FROM work_link_refusals) r),
		(SELECT count(*) FROM work_offset_resets)`).
		Scan(&c.Works, &c.Members, &c.ByID, &c.ByReaders, &c.HandLinks, &c.Dissolved, &c.Refused, &c.OffsetResets)
	if err != nil {
		return c, fmt.Errorf("store: count works: %w", err)
	}
	return c, nil
}
