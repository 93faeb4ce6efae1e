package store_test

import (
	"context"
	"testing"
)

// offsetsSeed is a database as round 6 left it before offsets were per
// Reader (migration 0017): Work 1's mangadex member carries +100000 that
// some Reader of the Work set (the review's W5-2), its comix member 0;
// Work 2's members carry no offset. Their epochs began at 10.
const offsetsSeed = `
INSERT INTO readers (id, discord_id, name) VALUES (1, 'ann', 'Ann'), (2, 'bob', 'Bob');
INSERT INTO series (site, series_id, url, latest_number, max_number) VALUES
    ('mangadex', '3', 'u3', 50, 50), ('comix', '4', 'u4', 50, 50), ('mangadex', '7', 'u7', 20, 20), ('comix', '9', 'u9', 20, 20);
INSERT INTO bookmarks (reader_id, site, series_id) VALUES (1, 'mangadex', '3'), (1, 'comix', '4'), (2, 'comix', '4'), (1, 'comix', '9');
INSERT INTO works (id) VALUES (1), (2);
INSERT INTO work_members (site, series_id, work_id, linked_by, "offset", drift_since) VALUES
    ('mangadex', '3', 1, 'id:al', 100000, now()), ('comix', '4', 1, 'id:al', 0, NULL),
    ('mangadex', '7', 2, 'id:al', 0, NULL), ('comix', '9', 2, 'id:al', 0, NULL);
UPDATE work_members SET joined_max = 10;
`

// Migration 0018 sets each non-zero shared offset back to 0, since nobody
// recorded whose it was, keeps the old value for the Work page and the
// Owner, and starts a new epoch in that Work only.
func TestMigrationOffsetsReset(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := emptyStore(t)
	if err := st.MigrateToForTest(ctx, 17); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, offsetsSeed); err != nil {
		t.Fatal(err)
	}
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var got string
	if err := st.Pool().QueryRow(ctx, `SELECT string_agg(work_id || ':' || site || '/' || series_id || ' ' || "offset" || ' ' ||
			coalesce(joined_max::text, '-') || ' ' || (drift_since IS NOT NULL), '; ' ORDER BY work_id, site) FROM work_members`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if want := "1:comix/4 0 50 false; 1:mangadex/3 0 50 false; 2:comix/9 0 10 false; 2:mangadex/7 0 10 false"; got != want {
		t.Fatalf("members after 0018:\n%s\nwant\n%s", got, want)
	}
	resets, err := st.OffsetResets(ctx, 0)
	if err != nil || len(resets) != 1 || resets[0].WorkID != 1 || resets[0].Site != "mangadex" || resets[0].SeriesID != "3" || resets[0].Offset != "100000" {
		t.Fatalf("offset resets %+v (%v), want mangadex/3's 100000 in Work 1", resets, err)
	}
	if c, err := st.CountWorks(ctx); err != nil || c.OffsetResets != 1 {
		t.Fatalf("Owner's counts %+v (%v), want 1 offset reset", c, err)
	}
	// The Owner's shared offset settles it: the record goes.
	if err := st.SetSharedMemberOffset(ctx, 1, "mangadex", "3", "-1"); err != nil {
		t.Fatal(err)
	}
	if resets, err := st.OffsetResets(ctx, 1); err != nil || len(resets) != 0 {
		t.Fatalf("offset resets after the Owner's %+v (%v), want none", resets, err)
	}
}
