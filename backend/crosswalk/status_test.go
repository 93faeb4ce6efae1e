package crosswalk_test

import (
	"strings"
	"testing"
	"time"

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

// status is a Series' stored status and final chapter ("-" for none).
func (x *world) status(site, id string) string {
	x.t.Helper()
	var s string
	err := x.st.Pool().QueryRow(x.ctx, `SELECT coalesce(status, '-') || ' ' || coalesce(final_chapter::text, '-')
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

// again queues a Site's id of a Series once more after CacheFor, so the
// next pass asks MangaBaka again (the same answer).
func (x *world) again(site, id, kind, value string) {
	x.t.Helper()
	x.clock.Advance(8 * 24 * time.Hour)
	x.exec(`INSERT INTO crosswalk_queue (site, series_id, kind, value, source) VALUES ($1, $2, $3, $4, 'site')`, site, id, kind, value)
}

// The fixture's series is completed with total_chapters "249": a Series
// whose page gives no status takes both; the first status is a baseline
// that tells nobody, and the same answer again feeds nothing.
func TestCrosswalkStatusFromFixture(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	x.read(1, "mangapill", "c", id("al", "30003"))
	if st := x.pass(); st.Requests != 1 || st.Statuses != 1 {
		t.Fatalf("pass %+v, want one request filling one status", st)
	}
	if got := x.status("mangapill", "c"); got != "completed 249" {
		t.Fatalf("status %q, want completed 249", got)
	}
	if n := x.count(`SELECT count(*) FROM status_changes`); n != 0 {
		t.Fatalf("%d changes from a first status, want the baseline alone", n)
	}
	x.again("mangapill", "c", "al", "30003")
	if st := x.pass(); st.Requests != 1 || st.Statuses != 0 {
		t.Fatalf("asked again: %+v, want one request and no status fed", st)
	}
	if n := x.count(`SELECT count(*) FROM status_changes`); n != 0 {
		t.Fatalf("%d changes after the same answer, want none", n)
	}
}

// A Series whose page said a word we do not know (unknown) learns from
// MangaBaka that the story completed: one change, told once to each
// Reader following it, and not again when the same answer comes back. A
// Series whose page gives a status of its own keeps it: the crosswalk
// never argues with a Site.
func TestCrosswalkStatusChangeToldOnce(t *testing.T) {
	t.Parallel()
	x := newWorld(t, 0)
	x.readStatus(1, "mangapill", "c", store.StatusUnknown, id("al", "30003"))
	if _, err := x.st.AddBookmark(x.ctx, 2, "mangapill", "c", "https://mangapill.example/c"); err != nil {
		t.Fatal(err)
	}
	if st := x.pass(); st.Statuses != 1 {
		t.Fatalf("pass %+v, want one status fed", st)
	}
	check := func(when string) {
		t.Helper()
		if n := x.count(`SELECT count(*) FROM status_changes WHERE status = 'completed' AND was = 'unknown' AND final_chapter = 249`); n != 1 {
			t.Fatalf("%s: %d changes to completed, want 1", when, n)
		}
		if n := x.count(`SELECT count(*) FROM reader_status_notices`); n != 2 {
			t.Fatalf("%s: %d notices, want one per Reader (2)", when, n)
		}
	}
	check("first answer")
	x.again("mangapill", "c", "al", "30003")
	x.pass()
	check("same answer again")

	x.clock.Advance(8 * 24 * time.Hour)
	x.readStatus(1, "mangadex", "a", store.StatusReleasing, id("mal", "3"))
	if st := x.pass(); st.Requests != 1 || st.Statuses != 0 {
		t.Fatalf("a Series with its Site's status: %+v, want no status fed", st)
	}
	if got := x.status("mangadex", "a"); got != "releasing -" {
		t.Fatalf("the Site's status became %q", got)
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
	if got := x.status("mangapill", "c"); got != "unknown -" {
		t.Fatalf("status %q after a Reader's id, want the Site's unknown", got)
	}
	if n := x.count(`SELECT count(*) FROM status_changes`) + x.count(`SELECT count(*) FROM reader_status_notices`); n != 0 {
		t.Fatalf("%d change or notice rows from a Reader's id, want none", n)
	}
}

// Hostile status values: a word we do not know reads unknown (which says
// nothing), case and spaces are forgiven, a final chapter that is not a
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
		{"unknown word", status(`"exploded"`), "- -", false},
		{"upcoming", status(`"upcoming"`), "- -", false},
		{"empty", status(`""`), "- -", false},
		{"null", status(`null`), "- -", false},
		{"case and spaces", status(`" Hiatus "`), "hiatus -", false},
		{"markup", status(`"<script>completed</script>"`), "- -", false},
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
			if got := x.status("mangapill", "c"); got != c.want {
				t.Fatalf("status %q, want %q", got, c.want)
			}
		})
	}
}
