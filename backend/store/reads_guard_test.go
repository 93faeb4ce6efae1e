package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// guardFixture is a Reader with a bookmark of a Series whose Latest Chapter
// is 12, and a second Reader without one.
func guardFixture(t *testing.T) (*store.Store, store.Reader, store.Reader) {
	t.Helper()
	st := dbtest.New(t)
	ctx := context.Background()
	a, err := st.UpsertReader(ctx, "2", "A", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.UpsertReader(ctx, "3", "B", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddBookmark(ctx, a.ID, "mangapill", "7", "https://mangapill.com/manga/7"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecordOK(ctx, "mangapill", "7", store.ReadFacts{Title: "T", Number: "12"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	return st, a, b
}

func guardRead(reader int64, id, n string) store.Read {
	return store.Read{ReaderID: reader, Site: "mangapill", SeriesID: id, SeriesURL: "https://mangapill.com/manga/" + id,
		Number: n, ReadAt: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)}
}

// A page script pushes chapter 999999: the read is refused on every path
// (one read, a batch, a Reader without the bookmark) and Progress stays.
func TestReadFarPastLatestIsRefused(t *testing.T) {
	t.Parallel()
	st, a, b := guardFixture(t)
	ctx := context.Background()
	check := func(name string, reads []store.Read, want []bool) []store.ReadResult {
		t.Helper()
		res, err := st.ApplyReads(ctx, reads)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, r := range res {
			refused := errors.Is(r.Refused, store.ErrPastLatest)
			if refused != want[i] {
				t.Errorf("%s: read %d (%s) refused=%v, want %v (%+v)", name, i, reads[i].Number, refused, want[i], r)
			}
			if refused && r.Latest != "12" {
				t.Errorf("%s: read %d: Latest %q, want 12", name, i, r.Latest)
			}
		}
		return res
	}
	check("one", []store.Read{guardRead(a.ID, "7", "999999")}, []bool{true})
	check("batch", []store.Read{guardRead(a.ID, "7", "22.5"), guardRead(a.ID, "7", "22")}, []bool{true, false})
	if p, err := st.GetProgress(ctx, a.ID, "mangapill", "7"); err != nil || p.Number != "22" {
		t.Fatalf("progress %+v %v, want 22 (the margin's edge is taken)", p, err)
	}
	check("one after", []store.Read{guardRead(a.ID, "7", "40")}, []bool{true})
	// A Reader without the bookmark: no bookmark is created for the forged read.
	check("new", []store.Read{guardRead(b.ID, "7", "999999"), guardRead(b.ID, "8", "999999")}, []bool{true, false})
	if _, err := st.GetBookmark(ctx, b.ID, "mangapill", "7"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("forged read created a bookmark: %v", err)
	}
	// Series 8 has no Latest Chapter known yet: any number is taken.
	if p, err := st.GetProgress(ctx, b.ID, "mangapill", "8"); err != nil || p.Number != "999999" {
		t.Fatalf("unknown Latest: progress %+v %v", p, err)
	}
}

func TestAutoAddReadsPreference(t *testing.T) {
	t.Parallel()
	st, _, b := guardFixture(t)
	ctx := context.Background()
	if p, err := st.GetPreferences(ctx, b.ID); err != nil || !p.AutoAddReads {
		t.Fatalf("default preferences %+v %v, want auto_add_reads on", p, err)
	}
	res, err := st.ApplyReads(ctx, []store.Read{guardRead(b.ID, "7", "3")})
	if err != nil || !res[0].Moved {
		t.Fatalf("read with auto-add on: %+v %v", res, err)
	}
	bm, err := st.GetBookmark(ctx, b.ID, "mangapill", "7")
	if err != nil || bm.AddedBy != "read" {
		t.Fatalf("bookmark from a read: %+v %v, want added_by read", bm, err)
	}
	// An explicit add makes it the Reader's own.
	if _, err := st.AddReaderBookmark(ctx, b.ID, "mangapill", "7", "https://mangapill.com/manga/7"); err != nil {
		t.Fatal(err)
	}
	if bm, _ := st.GetBookmark(ctx, b.ID, "mangapill", "7"); bm.AddedBy != "reader" {
		t.Fatalf("re-added bookmark added_by %q, want reader", bm.AddedBy)
	}
	if err := st.SetPreferences(ctx, b.ID, store.Preferences{AutoAddReads: false}); err != nil {
		t.Fatal(err)
	}
	res, err = st.ApplyReads(ctx, []store.Read{guardRead(b.ID, "9", "3"), guardRead(b.ID, "7", "4")})
	if err != nil || res[0].Moved || res[0].Refused != nil || !res[1].Moved {
		t.Fatalf("reads with auto-add off: %+v %v, want the unknown one ignored and the bookmarked one applied", res, err)
	}
	if _, err := st.GetBookmark(ctx, b.ID, "mangapill", "9"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("auto-add off still created a bookmark: %v", err)
	}
	if err := st.SetPreferences(ctx, 1<<40, store.Preferences{}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown reader: %v", err)
	}
}

func TestSetProgressCorrectsBothWays(t *testing.T) {
	t.Parallel()
	st, a, b := guardFixture(t)
	ctx := context.Background()
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	for _, n := range []string{"20", "3", "500"} {
		if err := st.SetProgress(ctx, a.ID, "mangapill", "7", n, "https://mangapill.com/chapters/7-"+n, at); err != nil {
			t.Fatal(err)
		}
		if p, err := st.GetProgress(ctx, a.ID, "mangapill", "7"); err != nil || p.Number != n {
			t.Fatalf("after set %s: %+v %v", n, p, err)
		}
	}
	if err := st.SetProgress(ctx, b.ID, "mangapill", "7", "1", "", at); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("no bookmark: %v, want ErrNotFound", err)
	}
}
