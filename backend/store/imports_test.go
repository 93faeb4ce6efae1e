package store_test

import (
	"slices"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// An import brings no notices for the past (ADR 0017): a Series whose
// Latest Chapter moved before a Reader imported it owes that Reader only
// the chapters seen after the import, even with imported Progress below
// the earlier one; a Reader who had it before is owed both.
func TestImportOwesNoPastChapters(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	before := w.reader("1")
	importer := w.reader("2")
	w.bookmark(before, "mangapill", "1", t0.Add(-time.Hour))
	w.read("mangapill", "1", "10", t0)
	if got := w.read("mangapill", "1", "11", t0.Add(time.Minute)); !got.Event || got.Owed != 1 {
		t.Fatalf("11 before the import: event %v owed %d, want an event owing 1", got.Event, got.Owed)
	}

	readAt := t0.Add(2 * time.Minute)
	res, err := w.st.ImportBookmarks(w.ctx, importer, []store.ImportEntry{{Item: "https://mangapill.example/1",
		Site: "mangapill", SeriesID: "1", URL: "https://mangapill.example/1", Number: "5", ReadAt: &readAt, State: store.EntryPending}})
	if err != nil || len(res) != 1 || !res[0].Created || !res[0].Moved || res[0].Refused != nil {
		t.Fatalf("import: %+v %v", res, err)
	}
	var added time.Time
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT created_at FROM bookmarks WHERE reader_id = $1`, importer).Scan(&added); err != nil {
		t.Fatal(err)
	}
	if got := w.read("mangapill", "1", "12", added.Add(time.Minute)); !got.Event || got.Owed != 2 {
		t.Fatalf("12 after the import: event %v owed %d, want an event owing 2", got.Event, got.Owed)
	}

	owed := map[int64][]string{}
	if _, err := w.st.MakeDigests(w.ctx, added.Add(time.Hour), 10, func(in store.DigestInput) store.DigestPlan {
		for _, o := range in.Owed {
			owed[in.Reader.ID] = append(owed[in.Reader.ID], o.Number)
		}
		return store.DigestPlan{} // settles nothing
	}); err != nil {
		t.Fatal(err)
	}
	if got := owed[importer]; !slices.Equal(got, []string{"12"}) {
		t.Errorf("the importer is owed %v, want only 12 (11 came out before the import)", got)
	}
	if got := owed[before]; !slices.Equal(got, []string{"11", "12"}) {
		t.Errorf("the earlier Reader is owed %v, want 11 and 12", got)
	}
}

// An import sets the reading state it gives on the bookmarks it creates,
// by hand, and only a valid one: a bookmark the Reader had keeps theirs.
func TestImportSetsTheStatesOfNewBookmarksOnly(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	w.bookmark(r, "mangapill", "1", t0.Add(-time.Hour))
	entry := func(id, state string) store.ImportEntry {
		return store.ImportEntry{Item: "https://mangapill.example/" + id, Site: "mangapill", SeriesID: id,
			URL: "https://mangapill.example/" + id, State: store.EntryPending, ReadingState: state}
	}
	if _, err := w.st.ImportBookmarks(w.ctx, r, []store.ImportEntry{entry("1", "dropped"), entry("2", "on_hold"),
		entry("3", "'; DROP TABLE bookmarks; --"), entry("4", "completed")}); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	rows, err := w.st.Pool().Query(w.ctx, `SELECT series_id, state || ' ' || state_by_hand FROM bookmarks WHERE reader_id = $1`, r)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, v string
		if err := rows.Scan(&id, &v); err != nil {
			t.Fatal(err)
		}
		got[id] = v
	}
	want := map[string]string{"1": "reading false", "2": "on_hold true", "3": "reading false", "4": "completed true"}
	if rows.Err() != nil || len(got) != 4 || got["1"] != want["1"] || got["2"] != want["2"] || got["3"] != want["3"] || got["4"] != want["4"] {
		t.Fatalf("states %v, want %v (%v)", got, want, rows.Err())
	}
}
