package merge_test

import (
	"bytes"
	"testing"

	bp "mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/phonesync/backuppb/backuptest"
	"mangabookmark/backend/phonesync/merge"
)

func TestDuplicatesInOneUploadKeepTheHighestVersionThenTheNewest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	lib := w.lib(6, backuptest.Library{Manga: 1, Chapters: 1, Prefix: "d"})
	m := bp.List(lib, "backup_manga")[0]
	b := bp.New(w.msgs.Backup)
	for _, v := range []struct {
		title    string
		version  int64
		modified int64
	}{{"v5 old", 5, 100}, {"v5 new", 5, 200}, {"v3", 3, 900}, {"v5 older", 5, 150}} {
		c := cloneMsg(m)
		bp.Set(c, "title", v.title)
		bp.Set(c, "version", v.version)
		bp.Set(c, "last_modified_at", v.modified)
		bp.Append(b, "backup_manga", c)
	}
	a := w.merge("phone-a", 0, true, b)
	got := bp.List(a.Backup, "backup_manga")
	if len(got) != 1 || bp.String(got[0], "title") != "v5 new" {
		t.Fatalf("kept %d manga, first %v; want the one of version 5 modified last", len(got), got)
	}
}

func TestACursorAboveTheServersAsksForAFullLibrary(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	lib := w.lib(7, backuptest.Library{Manga: 3, Chapters: 2, Categories: 1, Prefix: "f"})
	w.merge("phone-a", 0, true, lib)
	a := w.merge("phone-b", 99, false, nil)
	if !a.FullRequested || a.Cursor != 1 || !a.Changed {
		t.Fatalf("cursor 99 on a library at 1: full requested %v cursor %d changed %v", a.FullRequested, a.Cursor, a.Changed)
	}
	noDiff(t, "answer to a cursor from the future", lib, a.Backup)
}

func TestSettingsTheClientsCopyWins(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	lib := w.lib(8, backuptest.Library{Manga: 1, Prefix: "s"})
	a1 := w.merge("phone-a", 0, true, lib)
	p := cloneMsg(bp.List(lib, "backup_preferences")[0])
	bp.Set(p, "value", []byte("other"))
	b := bp.New(w.msgs.Backup)
	bp.Append(b, "backup_preferences", p)
	b1 := w.merge("phone-b", a1.Cursor, false, b)
	if b1.Written != 1 {
		t.Fatalf("a changed setting: written %d", b1.Written)
	}
	a2 := w.merge("phone-a", a1.Cursor, false, nil)
	prefs := bp.List(a2.Backup, "backup_preferences")
	if len(prefs) != 1 || !bytes.Equal(prefs[0].Get(bp.Field(prefs[0], "value")).Bytes(), []byte("other")) {
		t.Fatalf("A gets preferences %v", prefs)
	}
	again := w.merge("phone-b", b1.Cursor, false, b)
	if again.Written != 0 {
		t.Fatalf("the same setting again: written %d", again.Written)
	}
}

func TestANewCategoryNamedAsAStoredOneIsMappedOntoIt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	lib := w.lib(9, backuptest.Library{Manga: 2, Chapters: 1, Categories: 1, Prefix: "n"})
	w.merge("phone-a", 0, true, lib)
	// Phone B names the same category, with its own uid and order, and
	// puts a new manga in it.
	b := bp.New(w.msgs.Backup)
	c := cloneMsg(bp.List(lib, "backup_categories")[0])
	bp.Set(c, "uid", int64(777))
	bp.Set(c, "order", int64(9))
	bp.Append(b, "backup_categories", c)
	m := backuptest.Manga(w.msgs, randFor(10), backuptest.Library{Chapters: 1, Prefix: "nb"}, 0)
	bp.SetInts(m, "categories", []int64{9})
	bp.Append(b, "backup_manga", m)
	a := w.merge("phone-b", 0, true, b)
	cats := bp.List(a.Backup, "backup_categories")
	if len(cats) != 1 {
		t.Fatalf("categories %q, want the one", categoryNames(a.Backup))
	}
	order := bp.Int(cats[0], "order")
	for _, got := range bp.List(a.Backup, "backup_manga") {
		if bp.String(got, "url") == bp.String(m, "url") {
			if o := bp.Ints(got, "categories"); len(o) != 1 || o[0] != order {
				t.Fatalf("B's manga is in %v, want the stored category's order %d", o, order)
			}
			return
		}
	}
	t.Fatal("B's manga is not in the answer")
}

func TestTheLibraryIsSealedAtRest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	lib := w.lib(11, backuptest.Library{Manga: 2, Chapters: 2, Categories: 1, Prefix: "secret"})
	w.merge("phone-a", 0, true, lib)
	rows, err := w.db.Query(w.ctx, `SELECT key_hash, coalesce(parent_hash, ''), digest, origin, sealed FROM sync_v2_items`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var cols [5][]byte
		if err := rows.Scan(&cols[0], &cols[1], &cols[2], &cols[3], &cols[4]); err != nil {
			t.Fatal(err)
		}
		for _, c := range cols {
			for _, clear := range []string{"secret", "MangaPill", "phone-a", "Title", "/chapters/"} {
				if bytes.Contains(c, []byte(clear)) {
					t.Fatalf("a stored row holds %q in the clear", clear)
				}
			}
		}
		n++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no row stored")
	}
	// A sealed row moved to another key does not open: the merge fails
	// rather than serve it.
	if _, err := w.db.Exec(w.ctx, `UPDATE sync_v2_items SET sealed = (SELECT sealed FROM sync_v2_items
		WHERE kind = 2 LIMIT 1) WHERE kind = 1`); err != nil {
		t.Fatal(err)
	}
	if _, err := w.eng.Snapshot(w.ctx, w.reader); err == nil {
		t.Fatal("a snapshot with a row sealed for another key opened")
	}
}

func TestANewTokenKeyDropsTheLibraryAndAsksForAFullOne(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	lib := w.lib(13, backuptest.Library{Manga: 2, Chapters: 2, Categories: 1, Prefix: "k"})
	a1 := w.merge("phone-a", 0, true, lib)
	c, err := merge.NewCrypt([]byte("another TOKEN_KEY, at least 32 bytes long"))
	if err != nil {
		t.Fatal(err)
	}
	if w.eng, err = merge.New(w.st, c, nil); err != nil {
		t.Fatal(err)
	}
	a2 := w.merge("phone-a", a1.Cursor, false, nil)
	if !a2.FullRequested || a2.Cursor != a1.Cursor || len(bp.List(a2.Backup, "backup_manga")) != 0 {
		t.Fatalf("after a new TOKEN_KEY: full requested %v cursor %d (was %d), %d manga", a2.FullRequested, a2.Cursor, a1.Cursor, len(bp.List(a2.Backup, "backup_manga")))
	}
	a3 := w.merge("phone-a", a2.Cursor, true, lib)
	noDiff(t, "the full upload after a new TOKEN_KEY", lib, a3.Backup)
}
