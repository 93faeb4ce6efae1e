package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// givenTitle is the given title on a Reader's bookmark ("-" for none).
func givenTitle(t *testing.T, st *store.Store, readerID int64, site, id string) string {
	t.Helper()
	var s *string
	if err := st.Pool().QueryRow(context.Background(), `SELECT given_title FROM bookmarks WHERE reader_id = $1 AND site = $2 AND series_id = $3`,
		readerID, site, id).Scan(&s); err != nil {
		t.Fatal(err)
	}
	if s == nil {
		return "-"
	}
	return *s
}

// An import's title is kept on the importer's bookmark only, cleaned, and
// only while the Series has no title of its own; a phone's favourite
// gives one to a bookmark it meets the same way; Undo of Remove puts it
// back; LibraryEntry reads it beside the Series' (empty) title.
func TestGivenTitlesStayTheReadersOwn(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	var ann, bob int64
	for i, id := range []*int64{&ann, &bob} {
		r, err := st.UpsertReader(ctx, fmt.Sprint(i+30), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		*id = r.ID
	}
	entry := func(id, title string) store.ImportEntry {
		return store.ImportEntry{Site: "mangapill", SeriesID: id, URL: "https://mangapill.test/series/" + id, Title: title, State: store.EntryPending}
	}
	if _, err := st.ImportBookmarks(ctx, ann, []store.ImportEntry{entry("5", "Ann's Story"), entry("6", "")}); err != nil {
		t.Fatal(err)
	}
	// A titled Series: an import's title is not kept.
	if _, err := st.AddBookmark(ctx, bob, "mangapill", "7", "https://mangapill.test/series/7"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecordOK(ctx, "mangapill", "7", store.ReadFacts{Title: "Its Own Title", Number: "1"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	hostile := "\u202eBob\x07's\tword " + strings.Repeat("x", 10_000)
	if _, err := st.ImportBookmarks(ctx, bob, []store.ImportEntry{entry("5", hostile), entry("7", "Not Its Title")}); err != nil {
		t.Fatal(err)
	}
	if got := givenTitle(t, st, ann, "mangapill", "5"); got != "Ann's Story" {
		t.Errorf("Ann's title of 5: %q", got)
	}
	if got := givenTitle(t, st, ann, "mangapill", "6"); got != "-" {
		t.Errorf("an import naming no title stored %q", got)
	}
	bob5 := givenTitle(t, st, bob, "mangapill", "5")
	if !strings.HasPrefix(bob5, "Bob's word xxx") || len([]rune(bob5)) != 300 {
		t.Errorf("Bob's title of 5 (%d characters): %.40q", len([]rune(bob5)), bob5)
	}
	if got := givenTitle(t, st, bob, "mangapill", "7"); got != "-" {
		t.Errorf("an import's title was kept on a titled Series: %q", got)
	}
	if s, err := st.GetSeries(ctx, "mangapill", "5"); err != nil || s.Title != "" {
		t.Fatalf("the shared Series took a Reader's title: %q (%v)", s.Title, err)
	}
	it, err := st.LibraryEntry(ctx, ann, "mangapill", "5")
	if err != nil || it.Title != "" || it.GivenTitle != "Ann's Story" {
		t.Fatalf("Ann's entry: title %q, given %q (%v)", it.Title, it.GivenTitle, err)
	}
	// The phone: a favourite Ann bookmarks already gets the phone's
	// title (the later word); one she does not writes nothing.
	if _, err := st.ApplySyncReads(ctx, ann, []store.ImportEntry{entry("5", "From The Phone"), entry("8", "Not Bookmarked")}, false); err != nil {
		t.Fatal(err)
	}
	if got := givenTitle(t, st, ann, "mangapill", "5"); got != "From The Phone" {
		t.Errorf("Ann's title of 5 after the phone: %q", got)
	}
	var n int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM bookmarks WHERE series_id = '8'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the phone's read-only pass added %d bookmarks (%v)", n, err)
	}
	// With favourites on, the new bookmark has the phone's title.
	if _, err := st.ApplySyncReads(ctx, ann, []store.ImportEntry{entry("8", "Phone's Favourite")}, true); err != nil {
		t.Fatal(err)
	}
	if got := givenTitle(t, st, ann, "mangapill", "8"); got != "Phone's Favourite" {
		t.Errorf("Ann's title of the phone's favourite: %q", got)
	}
	// Remove then Undo: the title comes back with the bookmark.
	now := time.Now()
	key := []store.BookmarkKey{{Site: "mangapill", SeriesID: "5"}}
	tok, err := st.RemoveBookmarksHeld(ctx, ann, key, now, now.Add(10*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.UndoRemove(ctx, ann, tok, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := givenTitle(t, st, ann, "mangapill", "5"); got != "From The Phone" {
		t.Errorf("Ann's title of 5 after Undo: %q", got)
	}
}

// Migration 0030 adds the given title as NULL to the bookmarks a database
// holds, and its check refuses an empty or over-long title.
func TestMigrationGivenTitle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := emptyStore(t)
	if err := st.MigrateToForTest(ctx, 29); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `
		INSERT INTO readers (id, discord_id, name) VALUES (1, 'ann', 'Ann');
		INSERT INTO series (site, series_id, url) VALUES ('mangapill', '1', 'u1');
		INSERT INTO bookmarks (reader_id, site, series_id) VALUES (1, 'mangapill', '1');`); err != nil {
		t.Fatal(err)
	}
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if got := givenTitle(t, st, 1, "mangapill", "1"); got != "-" {
		t.Errorf("a bookmark from before 0030 has given title %q", got)
	}
	for _, bad := range []string{"", strings.Repeat("é", 301)} {
		if _, err := st.Pool().Exec(ctx, `UPDATE bookmarks SET given_title = $1`, bad); err == nil {
			t.Errorf("the check took a title of %d characters", len([]rune(bad)))
		}
	}
	if _, err := st.Pool().Exec(ctx, `UPDATE bookmarks SET given_title = $1`, strings.Repeat("é", 300)); err != nil {
		t.Errorf("the check refused 300 characters: %v", err)
	}
}

// A waiting import keeps each entry's title, cleaned, for the run that
// admits it later.
func TestWaitingImportKeepsItsTitles(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	r, err := st.UpsertReader(ctx, "40", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	j := store.ImportJob{ReaderID: r.ID, Kind: "csv", State: store.ImportWaiting, Total: 1, CreatedAt: now, DueAt: &now,
		Entries: []store.ImportEntry{{Item: "x", Site: "mangapill", SeriesID: "1", URL: "https://mangapill.test/series/1",
			State: store.EntryPending, Title: "\u202eKept\x00 Title " + strings.Repeat("z", 400)}}}
	if err := st.CreateImport(ctx, &j); err != nil {
		t.Fatal(err)
	}
	got, err := st.GetImport(ctx, r.ID, j.ID, true)
	if err != nil || len(got.Entries) != 1 {
		t.Fatalf("the job: %+v (%v)", got, err)
	}
	if title := got.Entries[0].Title; !strings.HasPrefix(title, "Kept Title zzz") || len([]rune(title)) != 300 {
		t.Errorf("the stored entry's title (%d characters): %.30q", len([]rune(title)), title)
	}
}
