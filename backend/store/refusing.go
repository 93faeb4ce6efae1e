package store

import (
	"context"
	"fmt"
	"time"
)

// RefusingSites returns, of the given Sites, those whose Lane's refusal
// backoff is open at now (the console's "refusing" Lane state), each with
// the time since which the Site refuses us: the start of the first
// refusing pass since the latest pass in which the Site answered a read
// (as NoticeRefusalRun counts the run), else when the backoff was set. A
// library card of a Series the Lane could not read yet says so instead of
// "checking…".
func (s *Store) RefusingSites(ctx context.Context, sites []string, now time.Time) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	if len(sites) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, `
		SELECT l.site, coalesce((
			SELECT min(p.started_at) FROM poll_passes p
			WHERE p.site = l.site AND p.ok + p.not_found + p.no_chapter + p.unfetchable = 0
				AND (p.refused > 0 OR p.skip = 'refusing')
				AND p.started_at > coalesce((SELECT a.started_at FROM poll_passes a
					WHERE a.site = l.site AND a.ok + a.not_found + a.no_chapter + a.unfetchable > 0
					ORDER BY a.started_at DESC LIMIT 1), '-infinity')
		), l.updated_at)
		FROM poll_lanes l
		WHERE l.site = ANY($1) AND l.refuse_until > $2`, sites, now)
	if err != nil {
		return nil, fmt.Errorf("store: refusing sites: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var site string
		var since time.Time
		if err := rows.Scan(&site, &since); err != nil {
			return nil, fmt.Errorf("store: refusing sites: %w", err)
		}
		out[site] = since
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: refusing sites: %w", err)
	}
	return out, nil
}
