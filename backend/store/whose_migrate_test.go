package store_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"testing"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// whoseSeed is a database as round 5 left it (migration 0015): Bob's two
// named al ids made Ann's story and his one Work (W1, the review's
// W5-1); two Sites' pages link W2; Carol's import linked W3; W4 holds
// two MangaDex Series by a Site's id. Ann is owed a notice in W1.
const whoseSeed = `
INSERT INTO readers (id, discord_id, name) VALUES (1, 'ann', 'Ann'), (2, 'bob', 'Bob'), (3, 'carol', 'Carol');
INSERT INTO series (site, series_id, url) VALUES
    ('mangapill', '1', 'u1'), ('comix', '2', 'u2'), ('mangadex', '3', 'u3'), ('comix', '4', 'u4'),
    ('mangapill', '5', 'u5'), ('weebcentral', '6', 'u6'), ('mangadex', '7', 'u7'), ('mangadex', '8', 'u8'),
    ('comix', '9', 'u9');
INSERT INTO bookmarks (reader_id, site, series_id, created_at) VALUES
    (1, 'mangapill', '1', now() - interval '3 days'), (2, 'mangapill', '1', now() - interval '2 days'),
    (2, 'comix', '2', now() - interval '2 days'),
    (1, 'mangadex', '3', now() - interval '2 days'), (2, 'comix', '4', now() - interval '2 days'),
    (3, 'mangapill', '5', now() - interval '1 day'), (3, 'weebcentral', '6', now() - interval '1 day');
INSERT INTO series_ids (site, series_id, kind, value, source, created_at) VALUES
    ('mangapill', '1', 'al', '1', 'reader', now() - interval '1 day'),
    ('mangapill', '1', 'al', '2', 'reader', now() - interval '20 hours'),
    ('comix', '2', 'al', '1', 'reader', now() - interval '1 day'),
    ('mangadex', '3', 'al', '7', 'site', now() - interval '1 day'),
    ('comix', '4', 'al', '7', 'site', now() - interval '1 day'),
    ('mangapill', '5', 'mal', '9', 'import', now() - interval '1 day'),
    ('weebcentral', '6', 'mal', '9', 'import', now() - interval '1 day'),
    ('mangadex', '7', 'al', '8', 'site', now() - interval '1 day'),
    ('mangadex', '8', 'al', '8', 'site', now() - interval '1 day'),
    ('comix', '9', 'al', '8', 'site', now() - interval '1 day');
INSERT INTO import_jobs (reader_id, kind, state, created_at, entries) VALUES (3, 'json', 'done', now(),
    '[{"site":"mangapill","series_id":"5","ids":[{"kind":"mal","value":"9","source":"import"}]},
      {"site":"weebcentral","series_id":"6","ids":[{"kind":"mal","value":"9","source":"import"}]}]');
INSERT INTO works (id) VALUES (1), (2), (3), (4);
SELECT setval(pg_get_serial_sequence('works', 'id'), 4);
INSERT INTO work_members (site, series_id, work_id, linked_by, created_at) VALUES
    ('mangapill', '1', 1, 'id:al', now()), ('comix', '2', 1, 'id:al', now()),
    ('mangadex', '3', 2, 'id:al', now()), ('comix', '4', 2, 'id:al', now()),
    ('mangapill', '5', 3, 'id:mal', now()), ('weebcentral', '6', 3, 'id:mal', now()),
    ('comix', '9', 4, 'id:al', now() - interval '2 hours'), ('mangadex', '7', 4, 'id:al', now() - interval '1 hour'),
    ('mangadex', '8', 4, 'id:al', now());
INSERT INTO reader_notices (reader_id, site, series_id, number, event_id, seen_at, work_id, work_number)
    VALUES (1, 'mangapill', '1', 112, 1, now(), 1, 112);
`

// emptyStore opens a Store on a new, empty database (dropped at the end).
func emptyStore(t *testing.T) *store.Store {
	t.Helper()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, dbtest.ServerURL())
	if err != nil {
		t.Skipf("no PostgreSQL: %v", err)
	}
	defer admin.Close(ctx)
	name := fmt.Sprintf("mbt_whose_%x", rand.Uint64())
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), dbtest.ServerURL())
		if err == nil {
			_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			c.Close(context.Background())
		}
	})
	u, err := url.Parse(dbtest.ServerURL())
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	st, err := store.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st
}

// Migration 0016 makes the ids Readers named or imported theirs, and
// takes apart the Works built on them into the hand links of the Reader
// whose word it was: Ann's story leaves Bob's Work (her notice with it),
// Bob keeps his link, Carol keeps hers, the Sites' Work stays, and a Work
// holding two Series of one Site keeps the first (the other is shown to
// the Owner).
func TestMigrationWhoseWord(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := emptyStore(t)
	if err := st.MigrateToForTest(ctx, 15); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, whoseSeed); err != nil {
		t.Fatal(err)
	}
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	q := func(sql string, args ...any) string {
		t.Helper()
		var s string
		if err := st.Pool().QueryRow(ctx, sql, args...).Scan(&s); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return s
	}
	if got := q(`SELECT string_agg(site || '/' || series_id || ' ' || kind || ' ' || value || ' ' || source || ' ' ||
			coalesce(reader_id::text, '-'), '; ' ORDER BY site, series_id, kind) FROM series_ids`); got !=
		"comix/2 al 1 reader 2; comix/4 al 7 site -; comix/9 al 8 site -; mangadex/3 al 7 site -; mangadex/7 al 8 site -; "+
			"mangadex/8 al 8 site -; mangapill/1 al 1 reader 2; mangapill/5 mal 9 import 3; weebcentral/6 mal 9 import 3" {
		t.Fatalf("ids after 0016:\n%s", got)
	}
	if got := q(`SELECT string_agg(work_id || ':' || site || '/' || series_id, ' ' ORDER BY work_id, site) FROM work_members`); got !=
		"2:comix/4 2:mangadex/3 4:comix/9 4:mangadex/7" {
		t.Fatalf("shared members after 0016: %s", got)
	}
	if got := q(`SELECT string_agg(reader_id || '@' || work_id || ':' || site || '/' || series_id, ' ' ORDER BY reader_id, site)
			FROM work_hand_links`); got != "2@1:comix/2 2@1:mangapill/1 3@3:mangapill/5 3@3:weebcentral/6" {
		t.Fatalf("hand links after 0016: %s", got)
	}
	if got := q(`SELECT coalesce(work_id::text, 'none') FROM reader_notices WHERE reader_id = 1`); got != "none" {
		t.Fatalf("Ann's owed notice still carries Work %s", got)
	}
	if _, err := st.ReaderWorkOf(ctx, 1, "mangapill", "1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Ann's story in a Work for her: %v", err)
	}
	if w, err := st.ReaderWorkOf(ctx, 2, "mangapill", "1"); err != nil || w != 1 {
		t.Fatalf("Bob's story 1 in Work %d (%v), want his own 1", w, err)
	}
	if c, err := st.CountWorks(ctx); err != nil || c.Refused != 1 {
		t.Fatalf("counts %+v (%v): want mangadex/8 refused", c, err)
	}
	// The bound holds in the schema from now on.
	if _, err := st.Pool().Exec(ctx, `INSERT INTO work_members (site, series_id, work_id, linked_by) VALUES ('mangadex', '8', 2, 'id:al')`); err == nil {
		t.Fatal("a second MangaDex member of Work 2 was stored")
	}
}
