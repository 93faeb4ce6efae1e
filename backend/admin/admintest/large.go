package admintest

import (
	"context"
	"fmt"
	"time"

	"mangabookmark/backend/store"
)

// SeedLarge lays down a benchmark-sized world with generate_series: series
// Series spread over the fixture's Sites (checked within the last two
// hours, one in a hundred never), failing failure rows, and one pass per
// Site per minute over days days. It ends with VACUUM ANALYZE so the
// planner and the visibility map look as they would in production.
func SeedLarge(ctx context.Context, st *store.Store, now time.Time, series, failing, days int) error {
	db := st.Pool()
	sites := SiteNames
	steps := []struct {
		what string
		sql  string
		args []any
	}{
		{"series", `INSERT INTO series (site, series_id, url, title, latest_checked_at, created_at)
			SELECT ($2::text[])[1 + i % array_length($2::text[], 1)], i::text,
				'https://example.test/series/' || i, 'Series ' || i,
				CASE WHEN i % 100 = 0 THEN NULL ELSE $3::timestamptz - (i % 7200) * interval '1 second' END,
				$3::timestamptz - interval '30 days'
			FROM generate_series(1, $1::int) AS i`, []any{series, sites, now}},
		{"failures", `INSERT INTO poll_failures (site, series_id, outcome, failing_since)
			SELECT ($2::text[])[1 + i % array_length($2::text[], 1)], i::text,
				(ARRAY['not_found','no_chapter','unfetchable','errors'])[1 + (i / 7) % 4],
				$3::timestamptz - (i % 1209600) * interval '1 second'
			FROM generate_series(1, $1::int) AS i`, []any{failing, sites, now}},
		{"passes", `INSERT INTO poll_passes (site, started_at, finished_at, due, checked, ok, errors, behind_by_ms)
			SELECT s, $2::timestamptz - m * interval '1 minute', $2::timestamptz - m * interval '1 minute' + interval '50 seconds',
				50, 50, 48, 2, (m % 600) * 1000
			FROM unnest($3::text[]) AS s, generate_series(1, $1::int) AS m`, []any{days * 24 * 60, now, sites}},
	}
	for _, s := range steps {
		if _, err := db.Exec(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("admintest: seed large %s: %w", s.what, err)
		}
	}
	if _, err := db.Exec(ctx, `VACUUM ANALYZE`); err != nil {
		return fmt.Errorf("admintest: vacuum: %w", err)
	}
	return nil
}
