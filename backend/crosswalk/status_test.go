package crosswalk_test

import (
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/crosswalk"
	"mangabookmark/backend/store"
)

// readStatus records a good read whose page says status (a Site's word),
// bookmarking the Series for reader first.
func (x *world) readStatus(reader int64, site, id, status string, ids ...store.ExternalID) {
	x.t.Helper()
	if _, err := x.st.AddBookmark(x.ctx, reader, site, id, "https://"+site+".example/"+id); err != nil {
		x.t.Fatal(err)
	}
	if _, err := x.st.RecordOK(x.ctx, site, id, store.ReadFacts{Title: "T " + id, Number: "10", Status: status, IDs: ids}, x.clock.Now()); err != nil {
		x.t.Fatal(err)
	}
}

// status is a Series' own status and final chapter, and MangaBaka's
// ("-" for none): "releasing - / completed 249".
func (x *world) status(site, id string) string {
	x.t.Helper()
	var s string
	err := x.st.Pool().QueryRow(x.ctx, `SELECT coalesce(status, '-') || ' ' || coalesce(final_chapter::text, '-') || ' / ' ||
			coalesce(mb_status, '-') || ' ' || coalesce(mb_final_chapter::text, '-')
		FROM series WHERE site = $1 AND series_id = $2`, site, id).Scan(&s)
	if err != nil {
		x.t.Fatal(err)
	}
	return s
}

func (x *world) count(sql string) int {
	x.t.Helper()
	var n int
	if err := x.st.Pool().QueryRow(x.ctx, sql).Scan(&n); err != nil {
		x.t.Fatal(err)
	}
	return n
}

// shows is what Reader reader's bookmark of a Series shows as the
// story's status and final chapter.
func (x *world) shows(reader int64, site, id string) string {
	x.t.Helper()
	bm, err := x.st.GetBookmark(x.ctx, reader, site, id)
	if err != nil {
		x.t.Fatal(err)
	}
	return bm.Status + " " + bm.FinalChapter
}

// The fixture's series is completed with total_chapters "249": a Series
// whose page gives no status takes both as MangaBaka's word; the first
// status is a baseline that tells nobody. After CacheFor the Worker asks
// again by itself (the refresh), and the same answer feeds nothing.
func TestCrosswalkStatusFromFixture(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	x.read(1, "mangapill", "c", id("al", "30003"))
	if st := x.pass(); st.Requests != 1 || st.Statuses != 1 {
		t.Fatalf("pass %+v, want one request feeding one status", st)
	}
	if got := x.status("mangapill", "c"); got != "- - / completed 249" {
		t.Fatalf("status %q, want MangaBaka's completed 249", got)
	}
	if got := x.shows(1, "mangapill", "c"); got != "completed 249" {
		t.Fatalf("the bookmark shows %q, want completed 249", got)
	}
	if n := x.count(`SELECT count(*) FROM status_changes`); n != 0 {
		t.Fatalf("%d changes from a first status, want the baseline alone", n)
	}
	if st := x.pass(); st.Queued != 0 || st.Taken != 0 {
		t.Fatalf("within CacheFor: %+v, want nothing asked again", st)
	}
	x.clock.Advance(crosswalk.CacheFor + time.Hour)
	if st := x.pass(); st.Queued != 1 || st.Requests != 1 || st.Statuses != 0 {
		t.Fatalf("refreshed: %+v, want one id queued again, one request and no status changed", st)
	}
	if st := x.pass(); st.Queued != 0 {
		t.Fatalf("after the refresh: %+v, want nothing queued", st)
	}
	if n := x.count(`SELECT count(*) FROM status_changes`); n != 0 {
		t.Fatalf("%d changes after the same answer, want none", n)
	}
}

// MangaBaka is one more source beside the Site: a Series whose page says
// "releasing" and whose MangaBaka entry says "completed" is completed,
// told once to each Reader following it; the Site's column stays its
// own, and its next read repeating "releasing" tells nothing. When the
// refreshed answer says "releasing", the story is releasing again, told
// once.
func TestCrosswalkStatusChangeToldOnce(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	x.readStatus(1, "mangapill", "c", store.StatusReleasing, id("al", "30003"))
	if _, err := x.st.AddBookmark(x.ctx, 2, "mangapill", "c", "https://mangapill.example/c"); err != nil {
		t.Fatal(err)
	}
	if st := x.pass(); st.Statuses != 1 {
		t.Fatalf("pass %+v, want one status fed", st)
	}
	x.readStatus(1, "mangapill", "c", store.StatusReleasing)
	check := func(when, status, was string, want int) {
		t.Helper()
		if n := x.count(`SELECT count(*) FROM status_changes WHERE status = '` + status + `' AND was = '` + was + `'`); n != 1 {
			t.Fatalf("%s: %d changes %s→%s, want 1", when, n, was, status)
		}
		if n := x.count(`SELECT count(*) FROM reader_status_notices`); n != want {
			t.Fatalf("%s: %d notices, want %d (one per Reader and change)", when, n, want)
		}
	}
	check("first answer", store.StatusCompleted, store.StatusReleasing, 2)
	if got := x.status("mangapill", "c"); got != "releasing - / completed 249" {
		t.Fatalf("status %q", got)
	}
	x.clock.Advance(crosswalk.CacheFor + time.Hour)
	x.pass()
	check("same answer again", store.StatusCompleted, store.StatusReleasing, 2)

	x.mb.set("/v1/source/anilist/30003", answer{status: 200, body: strings.Replace(fixture(t), `"status": "completed"`, `"status": "releasing"`, 1)})
	x.clock.Advance(crosswalk.CacheFor + time.Hour)
	if st := x.pass(); st.Requests != 1 || st.Statuses != 1 {
		t.Fatalf("refreshed to releasing: %+v, want one request and one status changed", st)
	}
	x.clock.Advance(crosswalk.CacheFor + time.Hour)
	x.pass()
	check("releasing again", store.StatusReleasing, store.StatusCompleted, 4)
	if got := x.shows(2, "mangapill", "c"); got != "releasing " {
		t.Fatalf("the bookmark shows %q, want releasing", got)
	}
}

// An answer from the cache gives the status as a fresh one: a second Site's
// Series carrying the story's MyAnimeList id asks nothing and takes
// MangaBaka's word, and the two Series' Work is completed with no change
// told (both were a baseline).
func TestCrosswalkStatusFromCache(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	x.read(1, "mangapill", "c", id("al", "30003"))
	x.pass()
	x.clock.Advance(24 * time.Hour)
	x.read(1, "weebcentral", "d", id("mal", "3"))
	if st := x.pass(); st.Requests != 0 || st.Cached != 1 || st.Statuses != 1 {
		t.Fatalf("pass %+v, want the cache feeding one status", st)
	}
	if got := x.status("weebcentral", "d"); got != "- - / completed 249" {
		t.Fatalf("status %q, want MangaBaka's from the cache", got)
	}
	if w := x.workOf("weebcentral", "d"); w == 0 || w != x.workOf("mangapill", "c") {
		t.Fatal("the two Series are not one Work")
	}
	if got := x.shows(1, "weebcentral", "d"); got != "completed 249" {
		t.Fatalf("the Work shows %q, want completed 249", got)
	}
	if n := x.count(`SELECT count(*) FROM status_changes`); n != 0 {
		t.Fatalf("%d changes, want none", n)
	}
}

// A Reader's own id is looked up for that Reader's ids, but its answer
// says nothing of the story's status: a Series' status is shared, and one
// Reader's word must not change it for the others.
func TestCrosswalkReaderIDFeedsNoStatus(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	x.readStatus(1, "mangapill", "c", store.StatusUnknown)
	if _, err := x.st.AddBookmark(x.ctx, 2, "mangapill", "c", "https://mangapill.example/c"); err != nil {
		t.Fatal(err)
	}
	if err := x.st.NameSeriesID(x.ctx, 1, "mangapill", "c", id("al", "30003")); err != nil {
		t.Fatal(err)
	}
	if st := x.pass(); st.Requests != 1 || st.Filled == 0 || st.Statuses != 0 {
		t.Fatalf("pass %+v, want the Reader's ids filled and no status", st)
	}
	if got := x.status("mangapill", "c"); got != "unknown - / - -" {
		t.Fatalf("status %q after a Reader's id, want the Site's unknown alone", got)
	}
	if n := x.count(`SELECT count(*) FROM status_changes`) + x.count(`SELECT count(*) FROM reader_status_notices`); n != 0 {
		t.Fatalf("%d change or notice rows from a Reader's id, want none", n)
	}
}

// Hostile status values: a word we do not know, or none, reads unknown
// (which says nothing), case and spaces are forgiven, a final chapter that is not a
// plain number is dropped and the status kept, and a status or
// total_chapters of the wrong type refuses the whole answer.
func TestCrosswalkHostileStatus(t *testing.T) {
	t.Parallel()
	f := fixture(t)
	status := func(v string) string { return strings.Replace(f, `"status": "completed"`, `"status": `+v, 1) }
	total := func(v string) string { return strings.Replace(f, `"total_chapters": "249"`, `"total_chapters": `+v, 1) }
	cases := []struct {
		name, body, want string
		hostile          bool
	}{
		{"unknown word", status(`"exploded"`), "unknown -", false},
		{"upcoming", status(`"upcoming"`), "unknown -", false},
		{"empty", status(`""`), "unknown -", false},
		{"null", status(`null`), "unknown -", false},
		{"case and spaces", status(`" Hiatus "`), "hiatus -", false},
		{"markup", status(`"<script>completed</script>"`), "unknown -", false},
		{"releasing with a total", status(`"releasing"`), "releasing -", false},
		{"total null", total(`null`), "completed -", false},
		{"total negative", total(`"-3"`), "completed -", false},
		{"total exponent", total(`"1e9"`), "completed -", false},
		{"total zero", total(`"0"`), "completed -", false},
		{"total injection", total(`"249; DROP TABLE series"`), "completed -", false},
		{"total huge", total(`"` + strings.Repeat("9", 40) + `"`), "completed -", false},
		{"total decimal", total(`"249.5"`), "completed 249.5", false},
		{"status a number", status(`4`), "- -", true},
		{"status an object", status(`{"en":"completed"}`), "- -", true},
		{"total a number", total(`249`), "- -", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			x := newWorld(t, 0)
			x.mb.set("/v1/source/anilist/30003", answer{status: 200, body: c.body})
			x.read(1, "mangapill", "c", id("al", "30003"))
			st := x.pass()
			if (st.Hostile == 1) != c.hostile {
				t.Fatalf("pass %+v, hostile want %v", st, c.hostile)
			}
			if c.hostile && st.Filled != 0 {
				t.Fatalf("a refused answer filled %d ids", st.Filled)
			}
			if got := x.status("mangapill", "c"); got != "- - / "+c.want {
				t.Fatalf("status %q, want %q", got, c.want)
			}
		})
	}
}
