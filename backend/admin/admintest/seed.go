package admintest

import (
	"context"
	"fmt"
	"time"

	"mangabookmark/backend/store"
)

// Seed lays down the fixture's world at now:
//   - kagane (browser): 3 Series, 2 due for 5m → asleep
//   - comix (browser): 20 Series, refusing for 10 more minutes, 4 failing
//   - mangadex (plain): 10 Series, paused for 2h ("site migration")
//   - weebcentral (plain): 40 Series, 12 due, behind 2h13m → running, 6 failing,
//     30 passes a quarter-hour apart
//   - mangapill (plain): 5 Series all fresh → idle, one failing since 3d
//   - natomanga (browser, no sidecar): 8 Series → no_browser
//
// and the two Readers apitest's tokens stand for (ids 1 and 2),
//
// and two owner notices. Every time is relative to now.
func Seed(ctx context.Context, st *store.Store, now time.Time) error {
	db := st.Pool()
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	// The two Readers behind apitest.OwnerToken (id 1) and ReaderToken (id 2).
	if _, err := db.Exec(ctx, `INSERT INTO readers (id, discord_id, name) VALUES (1, '100', 'owner'), (2, '200', 'reader')`); err != nil {
		return fmt.Errorf("readers: %w", err)
	}
	series := func(site string, n int, checked func(i int) *time.Time) error {
		for i := 1; i <= n; i++ {
			_, err := db.Exec(ctx, `INSERT INTO series (site, series_id, url, title, latest_checked_at, created_at)
				VALUES ($1, $2, $3, $4, $5, $6)`, site, fmt.Sprint(i),
				fmt.Sprintf("https://%s.test/series/%d", site, i), fmt.Sprintf("%s title %d", site, i),
				checked(i), ago(30*24*time.Hour))
			if err != nil {
				return fmt.Errorf("series %s/%d: %w", site, i, err)
			}
		}
		return nil
	}
	at := func(t time.Time) *time.Time { return &t }
	steps := []error{
		series("kagane", 3, func(i int) *time.Time {
			if i <= 2 {
				return at(ago(time.Hour + 5*time.Minute))
			}
			return at(ago(10 * time.Minute))
		}),
		series("comix", 20, func(i int) *time.Time { return at(ago(time.Hour + time.Duration(i)*time.Minute)) }),
		series("mangadex", 10, func(i int) *time.Time { return at(ago(3 * time.Hour)) }),
		series("weebcentral", 40, func(i int) *time.Time {
			if i <= 12 {
				return at(ago(3*time.Hour + 13*time.Minute - time.Duration(i)*time.Minute))
			}
			return at(ago(time.Duration(i) * time.Minute))
		}),
		series("mangapill", 5, func(i int) *time.Time { return at(ago(time.Duration(i) * time.Minute)) }),
		series("natomanga", 8, func(i int) *time.Time { return nil }),
	}
	for _, err := range steps {
		if err != nil {
			return err
		}
	}
	_, err := db.Exec(ctx, `INSERT INTO poll_lanes (site, paused_until, pause_reason, refuse_until) VALUES
		('comix', NULL, '', $1), ('mangadex', $2, 'site migration', NULL)`,
		now.Add(10*time.Minute), now.Add(2*time.Hour))
	if err != nil {
		return fmt.Errorf("poll_lanes: %w", err)
	}
	failures := []struct {
		site, id, outcome string
		since             time.Duration
	}{
		{"comix", "1", "unfetchable", 26 * time.Hour}, {"comix", "2", "unfetchable", 26 * time.Hour},
		{"comix", "3", "errors", 2 * time.Hour}, {"comix", "4", "not_found", 50 * time.Minute},
		{"weebcentral", "1", "no_chapter", 9 * 24 * time.Hour}, {"weebcentral", "2", "no_chapter", 5 * 24 * time.Hour},
		{"weebcentral", "3", "not_found", 4 * time.Hour}, {"weebcentral", "4", "errors", 3 * time.Hour},
		{"weebcentral", "5", "errors", 90 * time.Minute}, {"weebcentral", "6", "unfetchable", 20 * time.Minute},
		{"mangapill", "1", "not_found", 3 * 24 * time.Hour},
	}
	for _, f := range failures {
		if _, err := db.Exec(ctx, `INSERT INTO poll_failures (site, series_id, outcome, failing_since)
			VALUES ($1, $2, $3, $4)`, f.site, f.id, f.outcome, ago(f.since)); err != nil {
			return fmt.Errorf("poll_failures: %w", err)
		}
	}
	if err := seedPasses(ctx, st, now); err != nil {
		return err
	}
	_, err = db.Exec(ctx, `INSERT INTO owner_notices (kind, site, opened_at, notified_at) VALUES
		('adapter-broken', 'weebcentral', $1, $2), ('sidecar-down', '', $3, NULL)`,
		ago(30*time.Hour), ago(18*time.Hour), ago(13*time.Hour))
	if err != nil {
		return fmt.Errorf("owner_notices: %w", err)
	}
	return nil
}

func seedPasses(ctx context.Context, st *store.Store, now time.Time) error {
	insert := func(site string, started time.Time, due, checked, ok, nw, nf, nc, unf, errs, ref, unr int, skip string, behind time.Duration) error {
		_, err := st.Pool().Exec(ctx, `INSERT INTO poll_passes (site, started_at, finished_at, due, checked,
			ok, new, not_found, no_chapter, unfetchable, errors, refused, unreachable, skip, behind_by_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
			site, started, started.Add(time.Duration(checked)*10*time.Second), due, checked, ok, nw, nf, nc,
			unf, errs, ref, unr, skip, behind.Milliseconds())
		if err != nil {
			return fmt.Errorf("poll_passes %s: %w", site, err)
		}
		return nil
	}
	for i := 29; i >= 0; i-- {
		started := now.Add(-time.Duration(i)*15*time.Minute - 3*time.Minute)
		behind := time.Duration(30-i) * 4 * time.Minute
		if err := insert("weebcentral", started, 12+i%3, 9, 5, 1, 1, 1, 0, 1, 0, 0, "", behind); err != nil {
			return err
		}
	}
	rows := []struct {
		site                       string
		ago                        time.Duration
		due, checked, ok, new, ref int
		skip                       string
		behind                     time.Duration
	}{
		{"kagane", 20 * time.Minute, 0, 0, 0, 0, 0, "", 0},
		{"comix", 5 * time.Minute, 20, 3, 1, 0, 2, "", 40 * time.Minute},
		{"mangadex", 2 * time.Hour, 10, 10, 10, 2, 0, "", 0},
		{"mangapill", 4 * time.Minute, 5, 5, 5, 0, 0, "", 0},
		{"natomanga", 2 * time.Minute, 8, 0, 0, 0, 0, "no_browser", 20 * time.Hour},
	}
	for _, r := range rows {
		if err := insert(r.site, now.Add(-r.ago), r.due, r.checked, r.ok, r.new, 0, 0, 0, 0, r.ref, 0, r.skip, r.behind); err != nil {
			return err
		}
	}
	return nil
}
