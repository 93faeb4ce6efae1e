package store_test

import (
	"context"
	"testing"
	"time"
)

// muSeed is a database as migration 0018 left it, whose MangaUpdates ids
// kept the form each source gave (the pairs are docs/sources.md (ids)'s, read
// 2026-12-06):
//   - mangadex/1 carries the URL id 7cyaozt, comix/2 the API number
//     16020676361 it writes: one story, not linked before;
//   - mangadex/3 carries legacy 156244, comix/4 sq81dx9 (infanf/myanili
//     issue #46: the same story, but nothing but MangaUpdates maps them);
//   - Work 1 holds mangadex/5 and mangapill/7 (by al); Ann unlinked
//     comix/6 from it (migration 0019 makes that unlink hers alone).
//     mangadex/5 carries rmnzb04, comix/6 60143657332;
//   - mangapill/10 carries the zero-padded URL id 0rpf7qa (1675287010);
//   - Ann imported taikv6z for comix/8 (her word); mangadex/9's page gave
//     its API number 63762556139.
const muSeed = `
INSERT INTO readers (id, discord_id, name) VALUES (1, 'ann', 'Ann');
INSERT INTO series (site, series_id, url) VALUES
    ('mangadex', '1', 'u1'), ('comix', '2', 'u2'), ('mangadex', '3', 'u3'), ('comix', '4', 'u4'),
    ('mangadex', '5', 'u5'), ('comix', '6', 'u6'), ('mangapill', '7', 'u7'), ('comix', '8', 'u8'), ('mangadex', '9', 'u9'), ('mangapill', '10', 'u10');
INSERT INTO bookmarks (reader_id, site, series_id) VALUES (1, 'comix', '8'), (1, 'mangadex', '9');
INSERT INTO series_ids (site, series_id, kind, value, source, reader_id) VALUES
    ('mangadex', '1', 'mu', '7cyaozt', 'site', NULL), ('comix', '2', 'mu', '16020676361', 'site', NULL),
    ('mangadex', '3', 'mu', '156244', 'site', NULL), ('comix', '4', 'mu', 'sq81dx9', 'site', NULL),
    ('mangadex', '5', 'mu', 'rmnzb04', 'site', NULL), ('comix', '6', 'mu', '60143657332', 'site', NULL),
    ('mangadex', '5', 'al', '9', 'site', NULL), ('mangapill', '7', 'al', '9', 'site', NULL),
    ('comix', '8', 'mu', 'taikv6z', 'import', 1), ('mangadex', '9', 'mu', '63762556139', 'site', NULL),
    ('mangapill', '10', 'mu', '0rpf7qa', 'site', NULL);
INSERT INTO works (id) VALUES (1);
SELECT setval('works_id_seq', 1);
INSERT INTO work_members (site, series_id, work_id, linked_by) VALUES
    ('mangadex', '5', 1, 'id:al'), ('mangapill', '7', 1, 'id:al');
INSERT INTO work_unlinks (work_id, site, series_id, reader_id) VALUES (1, 'comix', '6', 1);
`

// Migration 0022 stores every MangaUpdates id in its one form, and Series
// that now share one link by the usual rules: a Reader's own unlink
// sticks in her library (only a shared unlink keeps a member out for
// everyone), a legacy id links to nothing but itself.
func TestMigrationMangaUpdatesCanonical(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := emptyStore(t)
	if err := st.MigrateToForTest(ctx, 18); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, muSeed); err != nil {
		t.Fatal(err)
	}
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var ids string
	if err := st.Pool().QueryRow(ctx, `SELECT string_agg(site || '/' || series_id || ' ' || kind || ' ' || value, '; '
			ORDER BY series_id::int, kind) FROM series_ids`).Scan(&ids); err != nil {
		t.Fatal(err)
	}
	want := "mangadex/1 mu 16020676361; comix/2 mu 16020676361; mangadex/3 mu_legacy 156244; comix/4 mu 62535527613; " +
		"mangadex/5 al 9; mangadex/5 mu 60143657332; comix/6 mu 60143657332; mangapill/7 al 9; comix/8 mu 63762556139; mangadex/9 mu 63762556139; " +
		"mangapill/10 mu 1675287010"
	if ids != want {
		t.Fatalf("ids after 0022:\n%s\nwant\n%s", ids, want)
	}
	var members string
	if err := st.Pool().QueryRow(ctx, `SELECT string_agg(site || '/' || series_id || ' ' || linked_by, '; '
			ORDER BY series_id) FROM work_members`).Scan(&members); err != nil {
		t.Fatal(err)
	}
	var w1 int64
	if err := st.Pool().QueryRow(ctx, `SELECT work_id FROM work_members WHERE site = 'mangadex' AND series_id = '1'`).Scan(&w1); err != nil {
		t.Fatalf("mangadex/1 is in no Work after 0022 (members: %s): %v", members, err)
	}
	if want := "mangadex/1 id:mu; comix/2 id:mu; mangadex/5 id:al; comix/6 id:mu; mangapill/7 id:al"; members != want {
		t.Fatalf("members after 0022:\n%s\nwant\n%s (comix/6 joins for everyone, mangadex/3 and comix/4 apart)", members, want)
	}
	if w, err := st.ReaderWorkOf(ctx, 1, "comix", "6"); err == nil && w == 1 {
		t.Fatalf("comix/6, which Ann unlinked, is in her Work %d after 0022", w)
	}
	// Ann's converted id is queued; the crosswalk's worker links it in her
	// library (here with no answer from MangaBaka: nothing to fill).
	items, err := st.ClaimCrosswalk(ctx, time.Now(), 10)
	if err != nil || len(items) != 1 || items[0].ReaderID != 1 || items[0].Value != "63762556139" {
		t.Fatalf("queued after 0022: %+v (%v), want Ann's converted id", items, err)
	}
	if _, err := st.ApplyCrosswalk(ctx, items[0], nil); err != nil {
		t.Fatal(err)
	}
	wa, err := st.ReaderWorkOf(ctx, 1, "comix", "8")
	if err != nil {
		t.Fatal(err)
	}
	if wb, err := st.ReaderWorkOf(ctx, 1, "mangadex", "9"); err != nil || wb != wa {
		t.Fatalf("in Ann's library: comix/8 in Work %d, mangadex/9 in %d (%v); want one", wa, wb, err)
	}
	if w, err := st.WorkOf(ctx, "comix", "8"); err == nil {
		t.Fatalf("Ann's word linked for everyone: Work %d", w)
	}
}
