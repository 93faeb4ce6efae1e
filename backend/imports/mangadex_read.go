package imports

import (
	"context"
	"fmt"

	"mangabookmark/backend/store"
)

// readList fills a mangadex_list job with the Series of its list, read
// through Config.MangaDexList. A list that cannot be read fails the job
// with the reason (nothing was added): the list is its one item, counted
// in total as unsupported, so added + already + waiting +
// unsupported_count = total holds for a failed list too (docs/api.md).
func (s *Service) readList(ctx context.Context, j *store.ImportJob) error {
	fail := func(reason string) error {
		now := s.cfg.Now()
		j.State, j.DueAt, j.NextAt, j.FinishedAt = store.ImportFailed, nil, nil, &now
		j.AddProblem(store.ImportProblem{Item: j.Source, Reason: reason})
		j.Total = j.Added + j.Already + j.Waiting + j.UnsupportedCount
		if err := s.cfg.Store.SaveImport(ctx, j); err != nil {
			return fmt.Errorf("imports: read list %d: %w", j.ID, err)
		}
		return nil
	}
	id, ok := ListID(j.Source)
	if !ok {
		return fail("not a MangaDex list URL")
	}
	if s.cfg.MangaDexList == nil {
		return fail("this server does not read MangaDex lists")
	}
	urls, err := s.cfg.MangaDexList(ctx, id)
	if err != nil {
		return fail(fmt.Sprintf("the list could not be read from MangaDex: %v", err))
	}
	p := &Parsed{Kind: KindMangaDexList, Source: j.Source}
	for _, u := range urls {
		if err := p.add(Item{Label: u, URL: u}); err != nil {
			return fail(err.Error())
		}
	}
	pl := MakePlan(p, s.cfg.Sites)
	stampReads(pl.Entries, s.cfg.Now())
	j.Total, j.Already, j.Entries = pl.Total, pl.Duplicates, pl.Entries
	j.Unsupported, j.UnsupportedCount = pl.Unsupported, len(pl.Unsupported) // the store keeps the first ones
	return nil
}
