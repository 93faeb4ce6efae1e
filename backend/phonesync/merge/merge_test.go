package merge_test

import (
	"bytes"
	"testing"

	bp "mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/phonesync/backuppb/backuptest"
)

func TestFirstSyncStoresEverythingAndARetryWritesNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	lib := w.lib(1, backuptest.Library{Manga: 6, Chapters: 5, Categories: 3, Prefix: "a"})

	a := w.merge("phone-a", 0, true, lib)
	if a.Cursor != 1 || !a.Changed || a.FullRequested {
		t.Fatalf("first merge: cursor %d changed %v full requested %v, want 1 true false", a.Cursor, a.Changed, a.FullRequested)
	}
	noDiff(t, "first answer", lib, a.Backup)

	again := w.merge("phone-a", a.Cursor, false, lib)
	if again.Cursor != 1 || again.Written != 0 || again.Changed {
		t.Fatalf("retry: cursor %d written %d changed %v, want 1 0 false", again.Cursor, again.Written, again.Changed)
	}
	if got := len(bp.List(again.Backup, "backup_manga")); got != 0 {
		t.Errorf("retry answer carries %d manga, want 0", got)
	}
	if got, want := categoryNames(again.Backup), categoryNames(lib); got != want {
		t.Errorf("retry answer categories %q, want every live one %q", got, want)
	}

	snap, err := w.eng.Snapshot(w.ctx, w.reader)
	if err != nil {
		t.Fatal(err)
	}
	noDiff(t, "snapshot", lib, snap.Backup)
}

func TestTwoDevicesTakingTurnsEndWithBothLibraries(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	libA := w.lib(1, backuptest.Library{Manga: 4, Chapters: 4, Categories: 2, Prefix: "a"})
	libB := w.lib(2, backuptest.Library{Manga: 3, Chapters: 6, Categories: 2, Prefix: "b", FirstOrder: 2})

	a1 := w.merge("phone-a", 0, true, libA)
	b1 := w.merge("phone-b", 0, true, libB)
	noDiff(t, "B's first answer", w.union(libA, libB), b1.Backup)

	// A's next merge, a delta with nothing of its own, gets B's manga.
	a2 := w.merge("phone-a", a1.Cursor, false, nil)
	if !a2.Changed {
		t.Fatal("A's delta after B wrote: changed false")
	}
	wantB := mangaURLs(libB)
	if got := mangaURLs(a2.Backup); !equal(got, wantB) {
		t.Fatalf("A's delta manga %v, want B's %v", got, wantB)
	}
	noDiff(t, "A's delta", w.union(libA, libB), mergeInto(w, libA, a2.Backup))

	// B, in turn, gets nothing new: A wrote nothing since.
	b2 := w.merge("phone-b", b1.Cursor, false, nil)
	if b2.Changed || len(bp.List(b2.Backup, "backup_manga")) != 0 {
		t.Fatalf("B's delta: changed %v, %d manga; want nothing", b2.Changed, len(bp.List(b2.Backup, "backup_manga")))
	}
}

// mergeInto is a phone's restore of an answer (an upsert by key): the
// library after restoring ans over local.
func mergeInto(w *world, local, ans *dynamicpbMessage) *dynamicpbMessage {
	out := w.union(local)
	for _, m := range bp.List(ans, "backup_manga") {
		bp.Append(out, "backup_manga", m)
	}
	seen := map[string]bool{}
	for _, c := range bp.List(local, "backup_categories") {
		seen[bp.String(c, "name")] = true
	}
	for _, c := range bp.List(ans, "backup_categories") {
		if !seen[bp.String(c, "name")] {
			bp.Append(out, "backup_categories", c)
		}
	}
	return out
}

func TestVersionDecides(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	lib := w.lib(3, backuptest.Library{Manga: 2, Chapters: 3, Categories: 1, Prefix: "v"})
	a1 := w.merge("phone-a", 0, true, lib)
	m := bp.List(lib, "backup_manga")[0]
	url := bp.String(m, "url")
	ver := bp.Int(m, "version")

	one := func(title string, version int64) *dynamicpbMessage {
		b := bp.New(w.msgs.Backup)
		c := cloneMsg(m)
		bp.Set(c, "title", title)
		bp.Set(c, "version", version)
		bp.Append(b, "backup_manga", c)
		return b
	}
	// Equal version: the server keeps its copy and answers nothing.
	eq := w.merge("phone-b", a1.Cursor, false, one("changed without a bump", ver))
	if eq.Written != 0 || len(bp.List(eq.Backup, "backup_manga")) != 0 {
		t.Fatalf("equal version: written %d, answered %d manga", eq.Written, len(bp.List(eq.Backup, "backup_manga")))
	}
	// Lower: the server's copy comes back, with all its chapters.
	lo := w.merge("phone-b", a1.Cursor, false, one("older", ver-1))
	got := bp.List(lo.Backup, "backup_manga")
	if len(got) != 1 || bp.String(got[0], "title") != bp.String(m, "title") || len(bp.List(got[0], "chapters")) != 3 || !lo.Changed {
		t.Fatalf("lower version: answer %v", got)
	}
	// Higher: written, and A sees it at its next merge.
	hi := w.merge("phone-b", lo.Cursor, false, one("newer", ver+1))
	if hi.Written != 1 {
		t.Fatalf("higher version: written %d", hi.Written)
	}
	a2 := w.merge("phone-a", a1.Cursor, false, nil)
	got = bp.List(a2.Backup, "backup_manga")
	if len(got) != 1 || bp.String(got[0], "url") != url || bp.String(got[0], "title") != "newer" || len(bp.List(got[0], "chapters")) != 3 {
		t.Fatalf("A after B's higher version: %v", got)
	}
}

func TestAChapterReadOnOneDeviceReachesTheOtherWithTheWholeManga(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	lib := w.lib(4, backuptest.Library{Manga: 3, Chapters: 6, Categories: 1, Prefix: "r"})
	a1 := w.merge("phone-a", 0, true, lib)
	b1 := w.merge("phone-b", 0, true, lib)

	m := bp.List(lib, "backup_manga")[1]
	last := bp.List(m, "chapters")[5]
	delta := bp.New(w.msgs.Backup)
	dm := cloneMsg(m)
	bp.Clear(dm, "chapters")
	ch := cloneMsg(last)
	bp.Set(ch, "read", true)
	bp.Set(ch, "version", bp.Int(last, "version")+1)
	bp.Append(dm, "chapters", ch)
	bp.Append(delta, "backup_manga", dm)
	a2 := w.merge("phone-a", a1.Cursor, false, delta)
	if a2.Written != 1 {
		t.Fatalf("A's read: written %d, want 1 (the chapter; the manga's version is unchanged)", a2.Written)
	}

	b2 := w.merge("phone-b", b1.Cursor, false, nil)
	got := chapterOf(b2.Backup, bp.String(m, "url"), bp.String(last, "url"))
	if got == nil || !bp.Bool(got, "read", false) {
		t.Fatalf("B does not get the read chapter: %v", got)
	}
	if n := len(bp.List(bp.List(b2.Backup, "backup_manga")[0], "chapters")); n != 6 {
		t.Errorf("B gets %d chapters of the manga, want all 6", n)
	}
}

func TestCategoryTombstonesAndAbsenceNeverDeletes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	lib := w.lib(5, backuptest.Library{Manga: 4, Chapters: 2, Categories: 3, Prefix: "c"})
	a1 := w.merge("phone-a", 0, true, lib)
	cats := bp.List(lib, "backup_categories")
	gone := cats[1]

	// An empty upload deletes nothing.
	empty := w.merge("phone-b", 0, false, nil)
	noDiff(t, "after an empty upload", lib, empty.Backup)

	a2 := w.merge("phone-a", a1.Cursor, false, nil, bp.Int(gone, "uid"))
	if a2.Written != 1 {
		t.Fatalf("tombstone: written %d", a2.Written)
	}
	if names := categoryNames(a2.Backup); names != bp.String(cats[0], "name")+","+bp.String(cats[2], "name") {
		t.Fatalf("categories after the delete: %q", names)
	}
	// A device that still has it, at the same version, does not bring it back.
	b := bp.New(w.msgs.Backup)
	bp.Append(b, "backup_categories", cloneMsg(gone))
	b2 := w.merge("phone-b", a2.Cursor, false, b)
	if b2.Written != 0 || !b2.Changed || bytes.Contains([]byte(categoryNames(b2.Backup)), []byte(bp.String(gone, "name"))) {
		t.Fatalf("same-version copy of a deleted category: written %d changed %v categories %q", b2.Written, b2.Changed, categoryNames(b2.Backup))
	}
	full := w.merge("phone-b", 0, true, nil)
	for _, m := range bp.List(full.Backup, "backup_manga") {
		for _, o := range bp.Ints(m, "categories") {
			if o == bp.Int(gone, "order") {
				t.Fatalf("manga %s still points at the deleted category", bp.String(m, "url"))
			}
		}
	}
	// Edited later (a higher version): it comes back.
	b = bp.New(w.msgs.Backup)
	back := cloneMsg(gone)
	bp.Set(back, "version", bp.Int(gone, "version")+1)
	bp.Append(b, "backup_categories", back)
	b3 := w.merge("phone-b", b2.Cursor, false, b)
	if got := categoryNames(b3.Backup); got != categoryNames(lib) {
		t.Fatalf("resurrected: categories %q, want %q", got, categoryNames(lib))
	}
}
