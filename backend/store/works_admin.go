package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// AdminMember is a shared member of a Work as the Owner sees it: its
// shared offset, and how many Readers hold their own offset on it or
// have unlinked it from the Work in their own library (docs/adr/0021,
// "Offsets per Reader", "Unlinks per Reader").
type AdminMember struct {
	Site       string
	SeriesID   string
	Title      string
	LinkedBy   string
	Offset     string // the shared offset
	OwnOffsets int
	OwnUnlinks int
}

// AdminWorkMembers lists Work workID's shared members by Site and id, for
// the Owner's Work view. ErrNotFound when the Work has no shared member.
func (s *Store) AdminWorkMembers(ctx context.Context, workID int64) ([]AdminMember, error) {
	rows, err := s.pool.Query(ctx, `SELECT m.site, m.series_id, s.title, m.linked_by, m."offset"::text,
			(SELECT count(*) FROM work_reader_offsets o WHERE o.work_id = m.work_id AND o.site = m.site AND o.series_id = m.series_id),
			(SELECT count(*) FROM work_reader_unlinks u WHERE u.work_id = m.work_id AND u.site = m.site AND u.series_id = m.series_id)
		FROM work_members m JOIN series s ON s.site = m.site AND s.series_id = m.series_id
		WHERE m.work_id = $1 ORDER BY m.site, m.series_id`, workID)
	if err != nil {
		return nil, fmt.Errorf("store: admin work members: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (AdminMember, error) {
		var m AdminMember
		return m, r.Scan(&m.Site, &m.SeriesID, &m.Title, &m.LinkedBy, &m.Offset, &m.OwnOffsets, &m.OwnUnlinks)
	})
	if err != nil {
		return nil, fmt.Errorf("store: admin work members: %w", err)
	}
	if len(out) == 0 {
		return nil, ErrNotFound
	}
	return out, nil
}
