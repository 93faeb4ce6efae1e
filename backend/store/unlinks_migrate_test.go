package store_test

import (
	"context"
	"testing"
)

// unlinksSeed is a database as migration 0018 left it, when an unlink
// held for everyone (the review's W5-3): Bob's unlink of comix/4
// dissolved Work 1 (mangadex/3 its former member), and his unlink of
// mangapill/10 left Work 2 with mangadex/7 and comix/9. An unlink that
// names no Reader (weebcentral/11 from Work 2) stays shared. Every id is
// a Site's own word.
const unlinksSeed = `
INSERT INTO readers (id, discord_id, name) VALUES (1, 'ann', 'Ann'), (2, 'bob', 'Bob');
INSERT INTO series (site, series_id, url, latest_number, max_number) VALUES
    ('mangadex', '3', 'u3', 50, 50), ('comix', '4', 'u4', 51, 51), ('mangadex', '7', 'u7', 20, 20),
    ('comix', '9', 'u9', 21, 21), ('mangapill', '10', 'u10', 22, 22), ('weebcentral', '11', 'u11', 23, 23);
INSERT INTO bookmarks (reader_id, site, series_id) VALUES
    (1, 'mangadex', '3'), (1, 'comix', '4'), (2, 'comix', '4'), (1, 'mangapill', '10'), (2, 'mangapill', '10');
INSERT INTO series_ids (site, series_id, kind, value, source) VALUES
    ('mangadex', '3', 'al', '1', 'site'), ('comix', '4', 'al', '1', 'site'),
    ('mangadex', '7', 'al', '2', 'site'), ('comix', '9', 'al', '2', 'site'),
    ('mangapill', '10', 'al', '2', 'site'), ('weebcentral', '11', 'al', '2', 'site');
INSERT INTO works (id) VALUES (1), (2);
SELECT setval(pg_get_serial_sequence('works', 'id'), 2);
INSERT INTO work_former_members (work_id, site, series_id) VALUES (1, 'mangadex', '3');
INSERT INTO work_members (site, series_id, work_id, linked_by) VALUES ('mangadex', '7', 2, 'id:al'), ('comix', '9', 2, 'id:al');
UPDATE work_members SET joined_max = 10;
INSERT INTO work_unlinks (work_id, site, series_id, reader_id) VALUES
    (1, 'comix', '4', 2), (2, 'mangapill', '10', 2), (2, 'weebcentral', '11', NULL);
`

// Migration 0019 makes each unlink that names its Reader that Reader's
// own, and rebuilds by the shared ids the Works those unlinks took apart,
// in a new epoch: Ann has her Work of mangadex/3 and comix/4 back, and
// mangapill/10 is in Work 2 for her; Bob's view keeps his unlinks.
func TestMigrationReaderUnlinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := emptyStore(t)
	if err := st.MigrateToForTest(ctx, 18); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, unlinksSeed); err != nil {
		t.Fatal(err)
	}
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	q := func(sql string) string {
		t.Helper()
		var s *string
		if err := st.Pool().QueryRow(ctx, sql).Scan(&s); err != nil {
			t.Fatal(err)
		}
		if s == nil {
			return ""
		}
		return *s
	}
	for _, c := range []struct{ what, sql, want string }{
		{"members", `SELECT string_agg(work_id || ':' || site || '/' || series_id || ' ' || coalesce(joined_max::text, '-'), '; '
			ORDER BY work_id, site) FROM work_members`,
			"1:comix/4 51; 1:mangadex/3 50; 2:comix/9 21; 2:mangadex/7 20; 2:mangapill/10 22"},
		{"Readers' unlinks", `SELECT string_agg(reader_id || ':' || work_id || ':' || site || '/' || series_id, '; '
			ORDER BY work_id) FROM work_reader_unlinks`, "2:1:comix/4; 2:2:mangapill/10"},
		{"shared unlinks", `SELECT string_agg(work_id || ':' || site || '/' || series_id, '; ') FROM work_unlinks`, "2:weebcentral/11"},
		{"former members", `SELECT string_agg(work_id || ':' || site || '/' || series_id, '; ') FROM work_former_members`, ""},
	} {
		if got := q(c.sql); got != c.want {
			t.Errorf("%s after 0019:\n%s\nwant\n%s", c.what, got, c.want)
		}
	}
	// Ann sees both Works whole; Bob sees none (Work 1 is one member for
	// him, and he unlinked mangapill/10 from Work 2).
	if ws, err := st.ReaderWorks(ctx, 1, t0); err != nil || len(ws) != 2 || len(ws[0].Members)+len(ws[1].Members) != 5 {
		t.Fatalf("Ann's Works %+v (%v), want Work 1 of 2 and Work 2 of 3 members", ws, err)
	}
	if ws, err := st.ReaderWorks(ctx, 2, t0); err != nil || len(ws) != 0 {
		t.Fatalf("Bob's Works %+v (%v), want none", ws, err)
	}
}
