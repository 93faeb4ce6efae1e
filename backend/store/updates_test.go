package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
)

// updatesWorld seeds Series, bookmarks and Chapter Events for the Updates
// tests. Every bookmark is made at u0 unless said; events come after.
type updatesWorld struct {
	t   *testing.T
	st  *store.Store
	ctx context.Context
	n   int // Readers made so far
}

var u0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func newUpdatesWorld(t *testing.T) *updatesWorld {
	t.Helper()
	return &updatesWorld{t: t, st: dbtest.New(t), ctx: context.Background()}
}

func (w *updatesWorld) readers(n int) []int64 {
	w.t.Helper()
	var os []storetest.ReaderOpts
	for range n {
		w.n++
		os = append(os, storetest.ReaderOpts{DiscordID: fmt.Sprint(500 + w.n), Name: fmt.Sprint("r", w.n)})
	}
	return storetest.Readers(w.ctx, w.t, w.st, os...)
}

// series makes Series "site/id" titled "T site/id".
func (w *updatesWorld) series(refs ...string) {
	w.t.Helper()
	for _, r := range refs {
		site, id, _ := strings.Cut(r, "/")
		storetest.Series(w.ctx, w.t, w.st, storetest.SeriesOpts{Site: site, ID: id, Title: "T " + r})
	}
}

// bookmark bookmarks "site/id" for reader at at.
func (w *updatesWorld) bookmark(reader int64, ref string, at time.Time) {
	w.t.Helper()
	site, id, _ := strings.Cut(ref, "/")
	storetest.Bookmarks(w.ctx, w.t, w.st, storetest.BookmarkOpts{ReaderID: reader, Site: site, SeriesID: id, CreatedAt: &at})
}

// event records chapter number of "site/id" seen minutes after u0.
func (w *updatesWorld) event(ref, number string, minutes int) {
	w.t.Helper()
	site, id, _ := strings.Cut(ref, "/")
	storetest.ChapterEvents(w.ctx, w.t, w.st, storetest.ChapterEventOpts{Site: site, SeriesID: id, Number: number,
		Title: "Chapter " + number, URL: "https://" + site + ".example/" + id + "/" + number,
		SeenAt: storetest.At(u0.Add(time.Duration(minutes) * time.Minute))})
}

func (w *updatesWorld) progress(reader int64, ref, number string) {
	w.t.Helper()
	site, id, _ := strings.Cut(ref, "/")
	storetest.Progress(w.ctx, w.t, w.st, storetest.ProgressOpts{ReaderID: reader, Site: site, SeriesID: id, Number: number, ReadAt: &u0})
}

// all reads every Update of the reader, page by page of size per.
func (w *updatesWorld) all(reader int64, per int) []store.Update {
	w.t.Helper()
	var out []store.Update
	var before *store.UpdatesCursor
	for range 100 {
		p, err := w.st.Updates(w.ctx, reader, before, per)
		if err != nil {
			w.t.Fatal(err)
		}
		if len(p.Updates) > per {
			w.t.Fatalf("a page of %d holds %d", per, len(p.Updates))
		}
		out = append(out, p.Updates...)
		if p.Next == nil {
			return out
		}
		before = p.Next
	}
	w.t.Fatal("the pages never end")
	return nil
}

// lines shows Updates as "site/id #number title read" lines, newest first.
func lines(us []store.Update) string {
	var b strings.Builder
	for _, u := range us {
		fmt.Fprintf(&b, "%s/%s #%s %q", u.Site, u.SeriesID, u.Number, u.StoryTitle)
		if u.Number != u.SeriesNumber {
			fmt.Fprintf(&b, " (own %s)", u.SeriesNumber)
		}
		if u.WorkID != nil {
			b.WriteString(" work")
		}
		if u.Read {
			b.WriteString(" read")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func wantUpdates(t *testing.T, got []store.Update, want ...string) {
	t.Helper()
	w := strings.Join(want, "\n")
	if len(want) > 0 {
		w += "\n"
	}
	if g := lines(got); g != w {
		t.Fatalf("updates:\n%s\nwant:\n%s", g, w)
	}
}

// Lone Series: newest first, each with its read state (Progress at or past
// the number), nothing seen before the bookmark, and the fields a row shows.
func TestUpdatesLoneSeriesReadStateAndOrder(t *testing.T) {
	t.Parallel()
	w := newUpdatesWorld(t)
	r := w.readers(1)[0]
	w.series("mangapill/1", "mangadex/2")
	w.bookmark(r, "mangapill/1", u0)
	w.bookmark(r, "mangadex/2", u0.Add(time.Hour))
	w.event("mangapill/1", "10", -5) // before the bookmark: not shown
	w.event("mangapill/1", "11", 10)
	w.event("mangapill/1", "12", 30)
	w.event("mangadex/2", "4", 20) // before its bookmark (u0+1h)
	w.event("mangadex/2", "5", 90)
	w.progress(r, "mangapill/1", "11")
	got := w.all(r, 50)
	wantUpdates(t, got,
		`mangadex/2 #5 "T mangadex/2"`,
		`mangapill/1 #12 "T mangapill/1"`,
		`mangapill/1 #11 "T mangapill/1" read`)
	u := got[1]
	if u.ChapterTitle != "Chapter 12" || u.URL != "https://mangapill.example/1/12" || !u.SeenAt.Equal(u0.Add(30*time.Minute)) || u.WorkID != nil {
		t.Fatalf("row: %+v", u)
	}
}

// A Work shows each number once, from its first sighting among the
// members the Reader sees (bookmarked or not), in the Reader's Work
// numbers (their own offset), read by Progress on any member; the title
// is the Work's as the library shows it.
func TestUpdatesWorkOncePerNumber(t *testing.T) {
	t.Parallel()
	w := newUpdatesWorld(t)
	r := w.readers(1)[0]
	w.series("mangapill/a", "mangadex/b", "comix/c")
	work := storetest.Works(w.ctx, t, w.st, storetest.WorkOpts{Members: []storetest.MemberOpts{
		{Site: "mangapill", SeriesID: "a"}, {Site: "mangadex", SeriesID: "b", Offset: "-100"}, {Site: "comix", SeriesID: "c"}}})[0]
	w.bookmark(r, "mangapill/a", u0)
	w.bookmark(r, "mangadex/b", u0)
	w.event("mangapill/a", "11", 10)
	w.event("mangadex/b", "111", 20) // 11 in Work numbers: shown already
	w.event("mangadex/b", "112", 30) // 12: first here
	w.event("mangapill/a", "12", 40)
	w.event("comix/c", "13", 50) // a member the Reader does not bookmark shows 13 first
	w.event("mangapill/a", "13", 60)
	w.progress(r, "mangadex/b", "111") // read 11 in Work numbers, on the other member
	storetest.SetSeries(w.ctx, t, w.st, storetest.SeriesSet{Site: "mangapill", IDs: []string{"a"}, LatestNumber: "13", SeenAt: storetest.At(u0.Add(time.Hour))})
	if _, err := w.st.Pool().Exec(w.ctx, `UPDATE series SET title = 'The Work' WHERE site = 'mangapill' AND series_id = 'a'`); err != nil {
		t.Fatal(err)
	}
	got := w.all(r, 50)
	wantUpdates(t, got,
		`comix/c #13 "The Work" work`,
		`mangadex/b #12 "The Work" (own 112) work`,
		`mangapill/a #11 "The Work" work read`)
	if *got[0].WorkID != work {
		t.Fatalf("work id %d, want %d", *got[0].WorkID, work)
	}
	// The Reader's own offset moves their numbers only.
	if _, err := w.st.SetMemberOffset(w.ctx, r, work, "mangadex", "b", "-99"); err != nil {
		t.Fatal(err)
	}
	wantUpdates(t, w.all(r, 50),
		`mangadex/b #13 "The Work" (own 112) work`, // 112-99: 13, before comix showed it
		`mangadex/b #12 "The Work" (own 111) work read`,
		`mangapill/a #11 "The Work" work read`)
}

// A Work's number is its first sighting's, the earliest by time and then
// by event id: one first shown before the story joined the library stays
// out when a later member shows it, and of two sightings at the same
// instant the older event is the one shown, page size aside.
func TestUpdatesWorkFirstSightingDecides(t *testing.T) {
	t.Parallel()
	w := newUpdatesWorld(t)
	r := w.readers(1)[0]
	w.series("mangapill/a", "mangadex/b")
	storetest.Works(w.ctx, t, w.st, storetest.WorkOpts{Members: []storetest.MemberOpts{
		{Site: "mangapill", SeriesID: "a"}, {Site: "mangadex", SeriesID: "b", Offset: "-100"}}})
	w.bookmark(r, "mangapill/a", u0)
	w.event("mangadex/b", "105", -10) // 5, before the bookmark
	w.event("mangapill/a", "5", 10)   // 5 again: not new
	w.event("mangapill/a", "6", 20)
	w.event("mangadex/b", "106", 20) // 6 at the same instant, a later event
	w.event("mangadex/b", "107", 25)
	w.event("mangapill/a", "7", 30) // 7 again
	want := []string{`mangadex/b #7 "T mangadex/b" (own 107) work`, `mangapill/a #6 "T mangadex/b" work`}
	for _, per := range []int{1, 50} {
		wantUpdates(t, w.all(r, per), want...)
	}
}

// A Reader's own unlinks hold: a member they unlinked is no part of the
// Work for them (its chapters not shown unless they bookmark it, then as
// a Series of its own), and a Work their unlinks thin below two members
// is none; another Reader still sees the Work whole.
func TestUpdatesHonourTheReadersUnlinks(t *testing.T) {
	t.Parallel()
	w := newUpdatesWorld(t)
	rs := w.readers(3)
	me, other, both := rs[0], rs[1], rs[2]
	w.series("mangapill/a", "mangadex/b", "comix/c", "kagane/x", "mangapill/y")
	works := storetest.Works(w.ctx, t, w.st,
		storetest.WorkOpts{Members: []storetest.MemberOpts{{Site: "mangapill", SeriesID: "a"}, {Site: "mangadex", SeriesID: "b"}, {Site: "comix", SeriesID: "c"}}},
		storetest.WorkOpts{Members: []storetest.MemberOpts{{Site: "kagane", SeriesID: "x"}, {Site: "mangapill", SeriesID: "y"}}})
	for _, r := range []int64{me, other} {
		w.bookmark(r, "mangapill/a", u0)
	}
	w.bookmark(both, "kagane/x", u0)
	w.bookmark(both, "mangapill/y", u0)
	w.event("mangadex/b", "5", 10) // b shows 5 first
	w.event("mangapill/a", "5", 20)
	w.event("comix/c", "6", 30)
	if _, err := w.st.UnlinkMember(w.ctx, me, works[0], "mangadex", "b"); err != nil {
		t.Fatal(err)
	}
	wantUpdates(t, w.all(me, 50),
		`comix/c #6 "T comix/c" work`,
		`mangapill/a #5 "T comix/c" work`)
	wantUpdates(t, w.all(other, 50),
		`comix/c #6 "T comix/c" work`,
		`mangadex/b #5 "T comix/c" work`)

	// Thinned: the Reader bookmarks both members of a two-member Work and
	// unlinks one: two Series of their own, each number shown on each.
	w.event("kagane/x", "2", 40)
	w.event("mangapill/y", "2", 50)
	wantUpdates(t, w.all(both, 50), `kagane/x #2 "T kagane/x" work`)
	if _, err := w.st.UnlinkMember(w.ctx, both, works[1], "mangapill", "y"); err != nil {
		t.Fatal(err)
	}
	wantUpdates(t, w.all(both, 50),
		`mangapill/y #2 "T mangapill/y"`,
		`kagane/x #2 "T kagane/x"`)
}

// A Reader's hand link makes a Work in their library only: its numbers
// are shown once for them, twice for a Reader who did not link.
func TestUpdatesHandLinkIsTheReadersOwn(t *testing.T) {
	t.Parallel()
	w := newUpdatesWorld(t)
	rs := w.readers(2)
	me, other := rs[0], rs[1]
	w.series("mangapill/a", "mangadex/b")
	for _, r := range rs {
		w.bookmark(r, "mangapill/a", u0)
		w.bookmark(r, "mangadex/b", u0)
	}
	if _, err := w.st.LinkByHand(w.ctx, me, store.SeriesRef{Site: "mangapill", SeriesID: "a"}, store.SeriesRef{Site: "mangadex", SeriesID: "b"}); err != nil {
		t.Fatal(err)
	}
	w.event("mangadex/b", "7", 10)
	w.event("mangapill/a", "7", 20)
	if got := w.all(me, 50); len(got) != 1 || got[0].Site != "mangadex" || got[0].WorkID == nil {
		t.Fatalf("the linking Reader:\n%s", lines(got))
	}
	wantUpdates(t, w.all(other, 50),
		`mangapill/a #7 "T mangapill/a"`,
		`mangadex/b #7 "T mangadex/b"`)
}

// On hold and dropped stories leave Updates (as they leave the pile);
// reading or plan again brings them back. A Work set on hold goes whole.
func TestUpdatesQuietStatesLeave(t *testing.T) {
	t.Parallel()
	w := newUpdatesWorld(t)
	r := w.readers(1)[0]
	w.series("mangapill/1", "mangapill/2", "mangadex/3", "comix/4")
	work := storetest.Works(w.ctx, t, w.st, storetest.WorkOpts{Members: []storetest.MemberOpts{
		{Site: "mangadex", SeriesID: "3"}, {Site: "comix", SeriesID: "4"}}})[0]
	for _, ref := range []string{"mangapill/1", "mangapill/2", "mangadex/3", "comix/4"} {
		w.bookmark(r, ref, u0)
	}
	w.event("mangapill/1", "1", 10)
	w.event("mangapill/2", "1", 20)
	w.event("mangadex/3", "1", 30)
	for _, s := range []struct{ id, state string }{{"1", store.StateOnHold}, {"2", store.StateDropped}} {
		if err := w.st.SetBookmarkState(w.ctx, r, "mangapill", s.id, s.state, u0); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.st.SetWorkState(w.ctx, r, work, store.StateOnHold, u0); err != nil {
		t.Fatal(err)
	}
	wantUpdates(t, w.all(r, 50))
	if err := w.st.SetBookmarkState(w.ctx, r, "mangapill", "2", store.StatePlan, u0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	// The Work's card shows the state set last: one member back to reading.
	if err := w.st.SetBookmarkState(w.ctx, r, "comix", "4", store.StateReading, u0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	wantUpdates(t, w.all(r, 50),
		`mangadex/3 #1 "T comix/4" work`,
		`mangapill/2 #1 "T mangapill/2"`)
}

// Pages: a cursor per page, ties in time broken by id, every Update once
// and in order whatever the page size; a cursor past the end is an empty
// last page.
func TestUpdatesPaging(t *testing.T) {
	t.Parallel()
	w := newUpdatesWorld(t)
	r := w.readers(1)[0]
	w.series("mangapill/1", "mangadex/2")
	w.bookmark(r, "mangapill/1", u0)
	w.bookmark(r, "mangadex/2", u0)
	for i := 1; i <= 7; i++ {
		w.event("mangapill/1", fmt.Sprint(i), i)
		w.event("mangadex/2", fmt.Sprint(i), i) // the same minute: the id decides
	}
	whole := w.all(r, 50)
	if len(whole) != 14 {
		t.Fatalf("%d updates, want 14", len(whole))
	}
	for _, per := range []int{1, 2, 3, 5, 13, 14} {
		if got := lines(w.all(r, per)); got != lines(whole) {
			t.Fatalf("pages of %d:\n%s\nwant:\n%s", per, got, lines(whole))
		}
	}
	for i := 1; i < len(whole); i++ {
		a, b := whole[i-1], whole[i]
		if a.SeenAt.Before(b.SeenAt) || (a.SeenAt.Equal(b.SeenAt) && a.EventID < b.EventID) {
			t.Fatalf("out of order at %d: %+v then %+v", i, a, b)
		}
	}
	p, err := w.st.Updates(w.ctx, r, &store.UpdatesCursor{SeenAt: u0, ID: 1}, 10)
	if err != nil || len(p.Updates) != 0 || p.Next != nil {
		t.Fatalf("past the end: %+v %v", p, err)
	}
	// The limit is held to 1..UpdatesMax.
	if p, err := w.st.Updates(w.ctx, r, nil, 0); err != nil || len(p.Updates) != 1 {
		t.Fatalf("limit 0: %d %v", len(p.Updates), err)
	}
	if p, err := w.st.Updates(w.ctx, r, nil, 1<<40); err != nil || len(p.Updates) != 14 {
		t.Fatalf("a huge limit: %d %v", len(p.Updates), err)
	}
}

// Attack: another Reader's chapters are never shown, whatever the cursor;
// their bookmarks, hand links, offsets and unlinks change nothing of mine.
func TestUpdatesNeverShowAnotherReadersChapters(t *testing.T) {
	t.Parallel()
	w := newUpdatesWorld(t)
	rs := w.readers(2)
	me, thief := rs[0], rs[1]
	w.series("mangapill/mine", "mangadex/theirs", "comix/shared", "kagane/their-link")
	w.bookmark(me, "mangapill/mine", u0)
	w.bookmark(me, "comix/shared", u0)
	w.bookmark(thief, "mangadex/theirs", u0)
	w.bookmark(thief, "comix/shared", u0)
	w.bookmark(thief, "kagane/their-link", u0)
	if _, err := w.st.LinkByHand(w.ctx, thief, store.SeriesRef{Site: "comix", SeriesID: "shared"}, store.SeriesRef{Site: "kagane", SeriesID: "their-link"}); err != nil {
		t.Fatal(err)
	}
	w.event("mangapill/mine", "1", 10)
	w.event("mangadex/theirs", "1", 20)
	w.event("kagane/their-link", "1", 30)
	w.event("comix/shared", "2", 40)
	w.event("kagane/their-link", "2", 35) // first for the thief's Work, nothing to me
	wantUpdates(t, w.all(me, 50),
		`comix/shared #2 "T comix/shared"`,
		`mangapill/mine #1 "T mangapill/mine"`)
	wantUpdates(t, w.all(thief, 50),
		`kagane/their-link #2 "T comix/shared" work`,
		`kagane/their-link #1 "T comix/shared" work`,
		`mangadex/theirs #1 "T mangadex/theirs"`)
	// A cursor aimed at the thief's events shows only mine before it.
	var theirs int64
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT id FROM chapter_events WHERE site = 'mangadex'`).Scan(&theirs); err != nil {
		t.Fatal(err)
	}
	p, err := w.st.Updates(w.ctx, me, &store.UpdatesCursor{SeenAt: u0.Add(time.Hour), ID: theirs}, 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range p.Updates {
		if u.Site != "mangapill" && u.Site != "comix" {
			t.Fatalf("another Reader's chapter shown: %+v", u)
		}
	}
	// A Reader with no bookmarks has no Updates.
	nobody := w.readers(1)[0]
	wantUpdates(t, w.all(nobody, 50))
}

// Attack: a cursor is exactly what String makes; anything else is
// ErrBadCursor, never a panic or a query.
func TestParseUpdatesCursor(t *testing.T) {
	t.Parallel()
	c := store.UpdatesCursor{SeenAt: u0.Add(1234 * time.Microsecond), ID: 42}
	got, err := store.ParseUpdatesCursor(c.String())
	if err != nil || !got.SeenAt.Equal(c.SeenAt) || got.ID != 42 {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	for _, bad := range []string{"", ".", "1.", ".1", "1", "1.0", "-1.2", "1.-2", "1.2.3", "x.1", "1.x", "1 .2", "1.2 ",
		"99999999999999999999.1", "1.99999999999999999999", "253402300800000000.1", strings.Repeat("1", 30) + "." + strings.Repeat("1", 15),
		"１.２", "0x10.1", "+1.2", "1e3.2", "1.2\x00", "'; DROP TABLE bookmarks; --"} {
		if _, err := store.ParseUpdatesCursor(bad); !errors.Is(err, store.ErrBadCursor) {
			t.Errorf("%q: %v, want ErrBadCursor", bad, err)
		}
	}
}
