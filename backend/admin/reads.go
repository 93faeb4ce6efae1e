package admin

import (
	"context"
	"errors"
	"fmt"

	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// Passes is a Lane's last passes, newest first, at most limit, or an
// error wrapping ErrNoSite.
func (s *Service) Passes(ctx context.Context, site string, limit int) ([]store.Pass, error) {
	if _, err := s.site(site); err != nil {
		return nil, err
	}
	ps, err := s.cfg.Store.ListPasses(ctx, site, limit)
	if err != nil {
		return nil, fmt.Errorf("admin: passes: %w", err)
	}
	return ps, nil
}

// Failing is the failing worklist under f, oldest failure first, and how
// many rows match (counted up to store.AdminFailingTotalCap).
func (s *Service) Failing(ctx context.Context, f store.AdminFailingFilter) ([]store.AdminFailing, int, error) {
	rows, total, err := s.cfg.Store.AdminFailingList(ctx, f)
	if err != nil {
		return nil, 0, fmt.Errorf("admin: failing: %w", err)
	}
	return rows, total, nil
}

// Notices is every open Owner notice.
func (s *Service) Notices(ctx context.Context) ([]store.Notice, error) {
	ns, err := s.cfg.Store.ListNotices(ctx)
	if err != nil {
		return nil, fmt.Errorf("admin: notices: %w", err)
	}
	return ns, nil
}

// WorkCounts is how many Works and links exist, by how they were made,
// as GET /api/admin/works answers it and /admin and mbctl show it.
func (s *Service) WorkCounts(ctx context.Context) (client.AdminWorks, error) {
	c, err := s.cfg.Store.CountWorks(ctx)
	if err != nil {
		return client.AdminWorks{}, fmt.Errorf("admin: work counts: %w", err)
	}
	return client.AdminWorks{Works: c.Works, Links: c.Members, ByID: c.ByID, ByReaders: c.ByReaders,
		HandLinks: c.HandLinks, Dissolved: c.Dissolved, Refused: c.Refused, OffsetResets: c.OffsetResets}, nil
}

// ErrNoWork is a Work with no shared member.
var ErrNoWork = errors.New("no such Work")

// Work is a Work's shared members for the Owner's Work view, with each
// one's shared offset and the Readers' own offsets and unlinks counted.
func (s *Service) Work(ctx context.Context, workID int64) (client.AdminWork, error) {
	ms, err := s.cfg.Store.AdminWorkMembers(ctx, workID)
	if errors.Is(err, store.ErrNotFound) {
		return client.AdminWork{}, fmt.Errorf("admin: Work %d: %w", workID, ErrNoWork)
	}
	if err != nil {
		return client.AdminWork{}, fmt.Errorf("admin: work: %w", err)
	}
	w := client.AdminWork{ID: workID, Members: make([]client.AdminWorkMember, 0, len(ms))}
	for _, m := range ms {
		w.Members = append(w.Members, client.AdminWorkMember{Site: m.Site, SeriesID: m.SeriesID, Title: m.Title,
			LinkedBy: m.LinkedBy, Offset: m.Offset, OwnOffsets: m.OwnOffsets, OwnUnlinks: m.OwnUnlinks})
	}
	return w, nil
}
