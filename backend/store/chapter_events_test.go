package store_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// noticeWorld seeds Readers and bookmarks for the notice tests. Bookmarks
// are dated before t0 unless moved.
type noticeWorld struct {
	t   *testing.T
	st  *store.Store
	ctx context.Context
}

func newNoticeWorld(t *testing.T) *noticeWorld {
	return &noticeWorld{t: t, st: dbtest.New(t), ctx: context.Background()}
}

func (w *noticeWorld) reader(discordID string) int64 {
	w.t.Helper()
	r, err := w.st.UpsertReader(w.ctx, discordID, "name-"+discordID, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	return r.ID
}

// bookmark adds a bookmark dated at.
func (w *noticeWorld) bookmark(reader int64, site, id string, at time.Time) {
	w.t.Helper()
	if _, err := w.st.AddBookmark(w.ctx, reader, site, id, "https://"+site+".example/"+id); err != nil {
		w.t.Fatal(err)
	}
	w.exec(`UPDATE bookmarks SET created_at = $4 WHERE reader_id = $1 AND site = $2 AND series_id = $3`, reader, site, id, at)
}

func (w *noticeWorld) progress(reader int64, site, id, number string) {
	w.t.Helper()
	w.exec(`INSERT INTO progress (reader_id, site, series_id, number, read_at) VALUES ($1, $2, $3, $4::numeric, now())
		ON CONFLICT (reader_id, site, series_id) DO UPDATE SET number = excluded.number`, reader, site, id, number)
}

func (w *noticeWorld) exec(q string, args ...any) {
	w.t.Helper()
	if _, err := w.st.Pool().Exec(w.ctx, q, args...); err != nil {
		w.t.Fatalf("%s: %v", q, err)
	}
}

func (w *noticeWorld) read(site, id, number string, at time.Time) store.OKResult {
	w.t.Helper()
	r, err := w.st.RecordOK(w.ctx, site, id, store.ReadFacts{Title: "T " + id, Number: number, ChTitle: "Chapter " + number, ChURL: "https://" + site + ".example/" + id + "/" + number}, at)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

func (w *noticeWorld) count(q string, args ...any) int {
	w.t.Helper()
	var n int
	if err := w.st.Pool().QueryRow(w.ctx, q, args...).Scan(&n); err != nil {
		w.t.Fatalf("%s: %v", q, err)
	}
	return n
}

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

func TestChapterEventBaselineAndMonotonic(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("100")
	w.bookmark(r, "mangapill", "1", t0.Add(-time.Hour))

	if got := w.read("mangapill", "1", "10", t0); got.Event {
		t.Fatal("the first read of a Series recorded a Chapter Event; it must only set the baseline")
	}
	if got := w.read("mangapill", "1", "10", t0.Add(time.Minute)); got.Event {
		t.Fatal("the same number again recorded an event")
	}
	if got := w.read("mangapill", "1", "11", t0.Add(2*time.Minute)); !got.Event || got.Owed != 1 {
		t.Fatalf("11 after 10: event %v owed %d, want an event owing 1", got.Event, got.Owed)
	}
	// The Site re-orders: the number falls, then comes back.
	if got := w.read("mangapill", "1", "9", t0.Add(3*time.Minute)); got.Event {
		t.Fatal("a number below the highest recorded an event")
	}
	if got := w.read("mangapill", "1", "11", t0.Add(4*time.Minute)); got.Event {
		t.Fatal("a number that fell and came back recorded an event again")
	}
	if got := w.read("mangapill", "1", "10.5", t0.Add(5*time.Minute)); got.Event {
		t.Fatal("10.5 is below the highest (11) and recorded an event")
	}
	if got := w.read("mangapill", "1", "12", t0.Add(6*time.Minute)); !got.Event {
		t.Fatal("12 after a highest of 11 recorded no event")
	}
	if n := w.count(`SELECT count(*) FROM chapter_events`); n != 2 {
		t.Fatalf("%d chapter events, want 2 (11 and 12)", n)
	}
	var title, url string
	var seen time.Time
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT title, url, seen_at FROM chapter_events WHERE number = 11`).Scan(&title, &url, &seen); err != nil {
		t.Fatal(err)
	}
	if title != "Chapter 11" || url != "https://mangapill.example/1/11" || !seen.Equal(t0.Add(2*time.Minute)) {
		t.Fatalf("event 11: %q %q %v", title, url, seen)
	}
	if n := w.count(`SELECT count(*) FROM reader_notices`); n != 2 {
		t.Fatalf("%d owed notices, want 2 (one per event)", n)
	}
}

func TestChapterEventOwesOnlyWhoTheRulesAllow(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	old := w.reader("1")    // bookmarked before: owed
	late := w.reader("2")   // bookmarked after the event: no backfill
	ahead := w.reader("3")  // Progress at the number: not owed
	behind := w.reader("4") // Progress below: owed
	muted := w.reader("5")  // notify off: not owed
	piled := w.reader("6")  // pile: owed (held at send time)
	for _, r := range []int64{old, ahead, behind, muted, piled} {
		w.bookmark(r, "mangapill", "1", t0.Add(-time.Hour))
	}
	w.read("mangapill", "1", "10", t0)
	w.bookmark(late, "mangapill", "1", t0.Add(2*time.Minute))
	w.progress(ahead, "mangapill", "1", "11")
	w.progress(behind, "mangapill", "1", "10")
	w.exec(`UPDATE bookmarks SET notify_mode = 'off' WHERE reader_id = $1`, muted)
	w.exec(`UPDATE bookmarks SET notify_mode = 'pile' WHERE reader_id = $1`, piled)

	got := w.read("mangapill", "1", "11", t0.Add(time.Minute))
	if !got.Event || got.Owed != 3 {
		t.Fatalf("event %v owed %d, want 3", got.Event, got.Owed)
	}
	for _, c := range []struct {
		name   string
		reader int64
		want   int
	}{{"old", old, 1}, {"late", late, 0}, {"ahead", ahead, 0}, {"behind", behind, 1}, {"muted", muted, 0}, {"piled", piled, 1}} {
		if n := w.count(`SELECT count(*) FROM reader_notices WHERE reader_id = $1`, c.reader); n != c.want {
			t.Errorf("%s: %d owed, want %d", c.name, n, c.want)
		}
	}
}

func TestOneNoticePerNumberEver(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	w.bookmark(r, "mangapill", "1", t0.Add(-time.Hour))
	w.read("mangapill", "1", "10", t0)
	w.read("mangapill", "1", "11", t0.Add(time.Minute))
	// Even if the highest mark were lost (a Series row rebuilt), the same
	// number owes nothing twice.
	w.exec(`UPDATE series SET max_number = 10`)
	if _, err := w.st.PruneChapterEvents(w.ctx, t0.Add(time.Hour)); err != nil { // the notice goes with its event
		t.Fatal(err)
	}
	w.exec(`UPDATE series SET max_number = 10`)
	if n := w.count(`SELECT count(*) FROM reader_notices`); n != 0 {
		t.Fatalf("the prune left %d notices of pruned events", n)
	}
	w.read("mangapill", "1", "11", t0.Add(2*time.Minute))
	w.read("mangapill", "1", "11", t0.Add(3*time.Minute))
	if n := w.count(`SELECT count(*) FROM reader_notices`); n != 1 {
		t.Fatalf("%d notices for number 11, want 1", n)
	}
}

func TestReaderChaptersAndPrune(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	other := w.reader("2")
	w.bookmark(r, "mangapill", "1", t0.Add(-time.Hour))
	w.bookmark(r, "weebcentral", "A", t0.Add(-time.Hour))
	w.bookmark(other, "mangadex", "x", t0.Add(-time.Hour))
	w.read("mangapill", "1", "1", t0)
	w.read("weebcentral", "A", "5", t0)
	w.read("mangadex", "x", "5", t0)
	w.read("mangapill", "1", "2", t0.Add(time.Hour))
	w.read("weebcentral", "A", "6", t0.Add(2*time.Hour))
	w.read("mangadex", "x", "6", t0.Add(3*time.Hour))
	w.read("mangapill", "1", "3", t0.Add(100*24*time.Hour))

	got, err := w.st.ReaderChapters(w.ctx, r, time.Time{}, 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Number != "3" || got[1].Site != "weebcentral" || got[2].Number != "2" {
		t.Fatalf("reader chapters newest first of own bookmarks: %+v", got)
	}
	if got[1].SeriesTitle != "T A" || got[1].ChapterTitle != "Chapter 6" {
		t.Fatalf("titles: %+v", got[1])
	}
	if got, _ := w.st.ReaderChapters(w.ctx, r, time.Time{}, 1); len(got) != 1 {
		t.Fatalf("limit 1 gave %d", len(got))
	}
	n, err := w.st.PruneChapterEvents(w.ctx, t0.Add(100*24*time.Hour).Add(-90*24*time.Hour))
	if err != nil || n != 3 {
		t.Fatalf("prune: %d %v, want the 3 events older than 90 days", n, err)
	}
	if got, _ := w.st.ReaderChapters(w.ctx, r, time.Time{}, 50); len(got) != 1 {
		t.Fatalf("after prune %d events", len(got))
	}
}

func TestRemovedBookmarkTakesItsNotices(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	a, b := w.reader("1"), w.reader("2")
	w.bookmark(a, "mangapill", "1", t0.Add(-time.Hour))
	w.bookmark(b, "mangapill", "1", t0.Add(-time.Hour))
	w.bookmark(a, "mangapill", "2", t0.Add(-time.Hour))
	w.read("mangapill", "1", "1", t0)
	w.read("mangapill", "2", "1", t0)
	w.read("mangapill", "1", "2", t0.Add(time.Minute))
	w.read("mangapill", "2", "2", t0.Add(time.Minute))
	if err := w.st.RemoveBookmark(w.ctx, a, "mangapill", "1"); err != nil {
		t.Fatal(err)
	}
	if n := w.count(`SELECT count(*) FROM reader_notices WHERE reader_id = $1 AND series_id = '1'`, a); n != 0 {
		t.Fatalf("a removed bookmark kept %d notices", n)
	}
	if n := w.count(`SELECT count(*) FROM reader_notices`); n != 2 {
		t.Fatalf("%d notices left, want the other Reader's and the other Series' (2)", n)
	}
	if err := w.st.DeleteSeries(w.ctx, "mangapill", "2"); err != nil {
		t.Fatal(err)
	}
	if n := w.count(`SELECT count(*) FROM reader_notices WHERE series_id = '2'`); n != 0 {
		t.Fatalf("a deleted Series kept %d notices", n)
	}
}
