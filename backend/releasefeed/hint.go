package releasefeed

import (
	"context"
	"fmt"
	"time"

	"mangabookmark/backend/store"
)

// hint makes due the followed Series the hints reach, on every Site of the
// registry, through store.HintSeries with each Site's due cutoff (now -
// its Rest): exactly a listing's hint. A Series reached by several
// releases gets each number (HintSeries takes the highest). It returns
// how many were made due per Site and, when record is set (a good read,
// or a failed one that still hinted), stores those counts; a failed read
// that hinted nothing leaves the last good read's counts standing.
func (f *Feed) hint(ctx context.Context, hints []hint, now time.Time, record bool) (map[string]int, error) {
	hinted := map[string]int{}
	all := f.cfg.Sites.All()
	names := make([]string, 0, len(all))
	for _, s := range all {
		names = append(names, s.Name)
	}
	if len(hints) > 0 {
		numbers := map[string][]string{}
		var values []string
		for _, h := range hints {
			if _, ok := numbers[h.MU]; !ok {
				values = append(values, h.MU)
			}
			numbers[h.MU] = append(numbers[h.MU], h.Number)
		}
		if len(values) > store.MaxMUValues {
			values = values[:store.MaxMUValues]
		}
		reached, err := f.cfg.Store.SeriesByMU(ctx, values)
		if err != nil {
			return nil, fmt.Errorf("releasefeed: %w", err)
		}
		bySite := map[string][]store.Hint{}
		for _, m := range reached {
			for _, n := range numbers[m.Value] {
				bySite[m.Site] = append(bySite[m.Site], store.Hint{SeriesID: m.SeriesID, Number: n})
			}
		}
		for _, s := range all {
			if len(bySite[s.Name]) == 0 {
				continue
			}
			// The count is stored with the hint, so a Lane the hint wakes
			// sees it (its wake gate opens for it).
			n, err := f.cfg.Store.HintReleases(ctx, s.Name, bySite[s.Name], now.Add(-s.Rest), now)
			if err != nil {
				return nil, fmt.Errorf("releasefeed: %w", err)
			}
			hinted[s.Name] = n
		}
	}
	if !record {
		return hinted, nil
	}
	var rest []string
	for _, name := range names {
		if _, done := hinted[name]; !done {
			rest = append(rest, name)
		}
	}
	if err := f.cfg.Store.SaveReleaseHints(ctx, rest, nil, now); err != nil {
		return nil, fmt.Errorf("releasefeed: %w", err)
	}
	return hinted, nil
}
