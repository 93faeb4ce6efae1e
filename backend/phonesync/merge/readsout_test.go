package merge_test

import (
	"context"
	"testing"

	bp "mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/phonesync/backuppb/backuptest"
	"mangabookmark/backend/phonesync/merge"
)

// markChapter stands in for phonesync.Service.ReadsOut: it marks one
// chapter url read, its version one above, lastModifiedAt 1_800_000_000.
type markChapter struct{ url string }

func (m markChapter) ReadsOut(_ context.Context, _ int64, backup []byte) ([]byte, error) {
	b, err := bp.Unmarshal(bp.MustLoad().Backup, backup)
	if err != nil {
		return nil, err
	}
	for _, mg := range bp.List(b, "backup_manga") {
		for _, ch := range bp.List(mg, "chapters") {
			if bp.String(ch, "url") == m.url && !bp.Bool(ch, "read", false) {
				bp.Set(ch, "read", true)
				bp.Set(ch, "version", bp.Int(ch, "version")+1)
				bp.Set(ch, "last_modified_at", int64(1_800_000_000))
			}
		}
	}
	return bp.Marshal(b)
}

func TestReadsMadeElsewhereReachEveryDeviceOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	lib := w.lib(12, backuptest.Library{Manga: 2, Chapters: 4, Categories: 1, Prefix: "e"})
	m := bp.List(lib, "backup_manga")[0]
	unread := bp.List(m, "chapters")[3] // the generator reads the first half
	a1 := w.merge("phone-a", 0, true, lib)
	b1 := w.merge("phone-b", 0, true, lib)

	c, err := merge.NewCrypt(testTokenKey)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := merge.New(w.st, c, markChapter{url: bp.String(unread, "url")})
	if err != nil {
		t.Fatal(err)
	}
	w.eng = eng

	a2 := w.merge("phone-a", a1.Cursor, false, nil)
	if a2.Marked != 1 || !a2.Changed {
		t.Fatalf("marked %d changed %v, want 1 true", a2.Marked, a2.Changed)
	}
	got := chapterOf(a2.Backup, bp.String(m, "url"), bp.String(unread, "url"))
	if got == nil || !bp.Bool(got, "read", false) || bp.Int(got, "version") != bp.Int(unread, "version")+1 {
		t.Fatalf("A's answer chapter: %v", got)
	}
	// Only read, version and lastModifiedAt changed.
	want := cloneMsg(unread)
	bp.Set(want, "read", true)
	bp.Set(want, "version", bp.Int(unread, "version")+1)
	bp.Set(want, "last_modified_at", int64(1_800_000_000))
	if d := fieldDiffs(want, got); len(d) > 0 {
		t.Fatalf("the marked chapter differs beyond read, version, time: %v", d)
	}
	if n := len(bp.List(bp.List(a2.Backup, "backup_manga")[0], "chapters")); n != 4 {
		t.Errorf("the manga comes with %d chapters, want all 4", n)
	}

	b2 := w.merge("phone-b", b1.Cursor, false, nil)
	if b2.Marked != 0 || chapterOf(b2.Backup, bp.String(m, "url"), bp.String(unread, "url")) == nil {
		t.Fatalf("B: marked %d again, or does not get the chapter", b2.Marked)
	}
	a3 := w.merge("phone-a", a2.Cursor, false, nil)
	if a3.Marked != 0 || a3.Changed {
		t.Fatalf("A's next merge: marked %d changed %v, want nothing", a3.Marked, a3.Changed)
	}
}
