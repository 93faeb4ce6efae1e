package store_test

import (
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// readIDs records a good read of number carrying a status and the
// Site's ids.
func (w *noticeWorld) readIDs(site, id, number, status string, at time.Time, ids ...store.ExternalID) {
	w.t.Helper()
	_, err := w.st.RecordOK(w.ctx, site, id, store.ReadFacts{Title: "T " + id, Number: number, Status: status, IDs: ids}, at)
	if err != nil {
		w.t.Fatal(err)
	}
}

// mangabaka records MangaBaka's word for the Series carrying al:value,
// fetched at at, and answers how many Series' word changed.
func (w *noticeWorld) mangabaka(value, status, final string, at time.Time) int {
	w.t.Helper()
	n, err := w.st.RecordMangaBakaStatus(w.ctx, []store.ExternalID{{Kind: "al", Value: value}}, status, final, at, at)
	if err != nil {
		w.t.Fatal(err)
	}
	return n
}

func (w *noticeWorld) shows(reader int64, site, id string) string {
	w.t.Helper()
	bm, err := w.st.GetBookmark(w.ctx, reader, site, id)
	if err != nil {
		w.t.Fatal(err)
	}
	return bm.Status + " " + bm.FinalChapter
}

// MangaBaka is one more source of a lone Series' story: its "completed"
// beside the Site's "releasing" makes the story completed (told once),
// the Site's next reads repeating "releasing" tell nothing, MangaBaka's
// refreshed "releasing" tells "releasing again" once, and an older answer
// than the one stored changes nothing. The Site's own column is never
// touched.
func TestMangaBakaStatusLoneSeries(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	r, d := w.reader("1"), w.reader("2")
	w.bookmark(r, "mangadex", "x", t0.Add(-time.Hour))
	w.bookmark(d, "mangadex", "x", t0.Add(-time.Hour))
	if err := w.st.SetBookmarkState(w.ctx, d, "mangadex", "x", store.StateDropped, t0); err != nil {
		t.Fatal(err)
	}
	w.readIDs("mangadex", "x", "10", store.StatusReleasing, t0, store.ExternalID{Kind: "al", Value: "7"})
	if n := w.mangabaka("7", store.StatusCompleted, "249", t0.Add(time.Hour)); n != 1 {
		t.Fatalf("%d Series changed, want 1", n)
	}
	if got := w.shows(r, "mangadex", "x"); got != "completed 249" {
		t.Fatalf("shows %q, want completed 249", got)
	}
	w.readIDs("mangadex", "x", "11", store.StatusReleasing, t0.Add(2*time.Hour))
	if n := w.mangabaka("7", store.StatusCompleted, "249.0", t0.Add(3*time.Hour)); n != 0 {
		t.Fatalf("the same word again changed %d Series", n)
	}
	if n := w.statusLines(r, store.StatusCompleted); n != 1 {
		t.Fatalf("%d completed lines, want 1", n)
	}
	if n := w.count(`SELECT count(*) FROM status_changes WHERE status = 'completed' AND was = 'releasing' AND final_chapter = 249`); n != 1 {
		t.Fatalf("%d changes releasing→completed 249, want 1", n)
	}
	if n := w.mangabaka("7", store.StatusHiatus, "", t0.Add(2*time.Hour)); n != 0 {
		t.Fatalf("an older answer changed %d Series", n)
	}
	if n := w.mangabaka("7", store.StatusReleasing, "", t0.Add(8*24*time.Hour)); n != 1 {
		t.Fatalf("the refreshed word changed %d Series, want 1", n)
	}
	w.mangabaka("7", store.StatusReleasing, "", t0.Add(16*24*time.Hour))
	if n := w.statusLines(r, store.StatusReleasing); n != 1 {
		t.Fatalf("%d releasing-again lines, want 1", n)
	}
	if n := w.count(`SELECT count(*) FROM reader_status_notices WHERE reader_id = $1`, d); n != 0 {
		t.Fatalf("the Reader who dropped it is owed %d lines", n)
	}
	if n := w.count(`SELECT count(*) FROM series WHERE status = 'releasing' AND final_chapter IS NULL AND mb_status = 'releasing'`); n != 1 {
		t.Fatal("the Site's own status was touched")
	}
}

// MangaBaka counts as one more member of a Work: its hiatus on one member
// makes the Work's hiatus beside two members' Sites saying releasing, told
// once to a Reader of both; a Reader's own id takes no word.
func TestMangaBakaStatusWorkMember(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	r := w.reader("1")
	w.bookmark(r, "mangadex", "x", t0.Add(-time.Hour))
	w.bookmark(r, "comix", "y", t0.Add(-time.Hour))
	w.bookmark(r, "mangapill", "z", t0.Add(-time.Hour))
	storetest.Works(w.ctx, t, w.st, storetest.WorkOpts{Members: []storetest.MemberOpts{
		{Site: "mangadex", SeriesID: "x"}, {Site: "comix", SeriesID: "y"}}})
	w.readIDs("mangadex", "x", "10", store.StatusReleasing, t0)
	w.readIDs("comix", "y", "10", store.StatusReleasing, t0, store.ExternalID{Kind: "al", Value: "8"})
	if err := w.st.NameSeriesID(w.ctx, r, "mangapill", "z", store.ExternalID{Kind: "al", Value: "8"}); err != nil {
		t.Fatal(err)
	}
	if n := w.mangabaka("8", store.StatusHiatus, "", t0.Add(time.Hour)); n != 1 {
		t.Fatalf("%d Series changed, want the Site's id's one", n)
	}
	w.readIDs("mangadex", "x", "10", store.StatusReleasing, t0.Add(2*time.Hour))
	if n := w.statusLines(r, store.StatusHiatus); n != 1 {
		t.Fatalf("%d hiatus lines, want 1", n)
	}
	for _, id := range [][2]string{{"mangadex", "x"}, {"comix", "y"}} {
		if got := w.shows(r, id[0], id[1]); got != "hiatus " {
			t.Fatalf("%s shows %q, want the Work's hiatus", id, got)
		}
	}
	if n := w.count(`SELECT count(*) FROM series WHERE mb_status IS NOT NULL`); n != 1 {
		t.Fatalf("%d Series took MangaBaka's word, want 1 (not the Reader's own id's)", n)
	}
}
