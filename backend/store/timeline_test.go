package store_test

import (
	"reflect"
	"strconv"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

const day = 24 * time.Hour

// weekly is n sightings a week apart, the newest at last, newest first.
func weekly(last time.Time, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = last.Add(-time.Duration(i) * 7 * day)
	}
	return out
}

func TestExpectWindow(t *testing.T) {
	t.Parallel()
	last := t0
	cases := []struct {
		name      string
		sightings []time.Time
		status    string
		want      *store.Expected // nil: nothing expected
	}{
		{name: "two sightings say nothing", sightings: weekly(last, 2)},
		{name: "weekly", sightings: weekly(last, 6),
			want: &store.Expected{From: last.Add(6 * day), To: last.Add(8 * day), Last: last, Interval: 7 * day}},
		{name: "completed expects nothing", sightings: weekly(last, 6), status: "completed"},
		{name: "cancelled expects nothing", sightings: weekly(last, 6), status: "cancelled"},
		{name: "hiatus still expects", sightings: weekly(last, 6), status: "hiatus",
			want: &store.Expected{From: last.Add(6 * day), To: last.Add(8 * day), Last: last, Interval: 7 * day}},
		// A three-month gap among weekly releases: the median holds at a
		// week, the spread at a day.
		{name: "a gap does not move the median", sightings: []time.Time{last, last.Add(-7 * day), last.Add(-14 * day),
			last.Add(-104 * day), last.Add(-111 * day), last.Add(-118 * day)},
			want: &store.Expected{From: last.Add(6 * day), To: last.Add(8 * day), Last: last, Interval: 7 * day}},
		// A repeat (the same minute twice, as sightingsSQL never gives,
		// or a clock step back) is no interval.
		{name: "repeats are no interval", sightings: []time.Time{last, last, last.Add(-7 * day), last.Add(-7 * day), last.Add(-14 * day)},
			want: &store.Expected{From: last.Add(6 * day), To: last.Add(8 * day), Last: last, Interval: 7 * day}},
		// Irregular: 2, 4, 9, 5 days; median 4.5 d, deviations 2.5, 0.5,
		// 4.5, 0.5 → 1.5 d.
		{name: "irregular", sightings: []time.Time{last, last.Add(-2 * day), last.Add(-6 * day), last.Add(-15 * day), last.Add(-20 * day)},
			want: &store.Expected{From: last.Add(3 * day), To: last.Add(6 * day), Last: last, Interval: 108 * time.Hour}},
		// Daily: the spread is a quarter of the interval.
		{name: "daily", sightings: []time.Time{last, last.Add(-day), last.Add(-2 * day), last.Add(-3 * day)},
			want: &store.Expected{From: last.Add(18 * time.Hour), To: last.Add(30 * time.Hour), Last: last, Interval: day}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := store.Expect(c.sightings, c.status)
			switch {
			case c.want == nil && got != nil:
				t.Fatalf("expected %+v, want nothing", *got)
			case c.want != nil && got == nil:
				t.Fatalf("expected nothing, want %+v", *c.want)
			case c.want != nil && *got != *c.want:
				t.Fatalf("expected\n%+v, want\n%+v", *got, *c.want)
			}
		})
	}
	// Only the newest MaxSightings count: a weekly story that went daily
	// ten releases ago is daily now.
	var s []time.Time
	for i := range 10 {
		s = append(s, last.Add(-time.Duration(i)*day))
	}
	s = append(s, weekly(last.Add(-10*day), 20)...)
	if got := store.Expect(s, ""); got == nil || got.Interval != day {
		t.Fatalf("daily for the last ten: %+v, want a day", got)
	}
}

func TestOverdueCauses(t *testing.T) {
	t.Parallel()
	exp := store.Expect(weekly(t0, 6), "")
	failing := t0.Add(3 * day)
	fresh := t0.Add(14*day + 20*time.Hour)
	late := t0.Add(15 * day)
	for _, c := range []struct {
		name    string
		status  string
		failing *time.Time
		now     time.Time
		want    string
	}{
		{name: "within twice the interval", now: t0.Add(14 * day), failing: &failing, status: "hiatus", want: ""},
		{name: "hiatus", now: late, status: "hiatus", failing: &failing, want: store.OverdueHiatus},
		{name: "failing", now: late, status: "releasing", failing: &failing, want: store.OverdueFailing},
		{name: "a failure under a day is no cause", now: late, failing: &fresh, want: store.OverdueQuiet},
		{name: "quiet", now: late, want: store.OverdueQuiet},
	} {
		if got := store.Overdue(exp, c.status, c.failing, c.now); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if got := store.Overdue(nil, "hiatus", &failing, t0.Add(400*day)); got != "" {
		t.Errorf("nothing expected: %q, want not overdue", got)
	}
}

func TestNextCheckBy(t *testing.T) {
	t.Parallel()
	checked, force := t0, t0.Add(10*time.Minute)
	for _, c := range []struct {
		name string
		c    store.Clock
		want *time.Time
	}{
		{name: "never read", c: store.Clock{}},
		{name: "rest", c: store.Clock{CheckedAt: &checked}, want: ptr(t0.Add(time.Hour))},
		{name: "slow", c: store.Clock{CheckedAt: &checked, Slow: true}, want: ptr(t0.Add(store.SlowRest))},
		{name: "forced", c: store.Clock{CheckedAt: &checked, ForcePollAt: &force}, want: &force},
		{name: "forced before the read is answered", c: store.Clock{CheckedAt: &force, ForcePollAt: &checked}, want: ptr(force.Add(time.Hour))},
	} {
		got := c.c.NextCheckBy(time.Hour)
		if (got == nil) != (c.want == nil) || (got != nil && !got.Equal(*c.want)) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestContinueAfter(t *testing.T) {
	t.Parallel()
	const series = "https://s.test/series"
	for _, c := range []struct {
		progress, next, url string
		want                store.Continue
	}{
		{"12", "13", "u13", store.Continue{Number: "13", URL: "u13"}},
		{"12", "12.5", "u", store.Continue{Number: "12.5", URL: "u"}},
		{"12.5", "13", "u13", store.Continue{Number: "13", URL: "u13"}},
		// Two chapters came between reads: 13 was never seen.
		{"12", "14", "u14", store.Continue{Number: "13", URL: series, Pick: true}},
		{"12", "", "", store.Continue{Number: "13", URL: series, Pick: true}},
		{"12.5", "15", "u15", store.Continue{Number: "13", URL: series, Pick: true}},
		{"", "3", "u3", store.Continue{Number: "3", URL: "u3"}},
		{"", "", "", store.Continue{URL: series, Pick: true}},
	} {
		if got := store.ContinueAfter(c.progress, c.next, c.url, series); got != c.want {
			t.Errorf("after %q with %q seen: %+v, want %+v", c.progress, c.next, got, c.want)
		}
	}
}

// TestTimeLineFromStoredTimes: the library, the bookmark list and the
// Work read their time lines from what the Lanes stored: the stamp and
// Forced Poll on the series row, the Chapter Events (a Work's first
// sighting of each number on any member, to the minute), the failure row.
func TestTimeLineFromStoredTimes(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	wk := w.twoMemberWork(r, "20", "18") // mangadex/a Latest 20, comix/b 18 (events on neither yet)
	w.bookmark(r, "mangapill", "lone", t0.Add(-time.Hour))
	w.read("mangapill", "lone", "1", t0)
	stamp := t0.Add(3 * time.Hour)
	if _, ok, err := w.st.StampChecked(w.ctx, "mangapill", "lone", stamp); err != nil || !ok {
		t.Fatalf("stamp: %v %v", ok, err)
	}
	if _, err := w.st.ForcePoll(w.ctx, "mangapill", "lone", stamp.Add(20*time.Minute)); err != nil {
		t.Fatal(err)
	}
	// The lone Series: weekly releases, seconds apart within the minute.
	for i := 2; i <= 5; i++ {
		w.read("mangapill", "lone", strconv.Itoa(i), t0.Add(time.Duration(i-1)*7*day+time.Duration(i)*time.Second))
	}
	// The Work: 21..24 weekly on mangadex; comix shows 21 and 22 first
	// (a day earlier) and 23 later (a repeat, not a sighting); comix
	// fails since two days.
	for i := 21; i <= 24; i++ {
		w.read("mangadex", "a", strconv.Itoa(i), t0.Add(time.Duration(i-20)*7*day))
	}
	w.read("comix", "b", "21", t0.Add(7*day-day))
	w.read("comix", "b", "22", t0.Add(14*day-day))
	w.read("comix", "b", "23", t0.Add(21*day+5*time.Hour))
	storetest.Failure(w.ctx, t, w.st, storetest.FailureOpts{Site: "comix", SeriesID: "b", Since: t0.Add(26 * day)})

	lib, err := w.st.LibraryEntry(w.ctx, r, "mangapill", "lone")
	if err != nil {
		t.Fatal(err)
	}
	c := lib.Clock
	if c.CheckedAt == nil || !c.CheckedAt.Equal(stamp) {
		t.Fatalf("checked at %v, want the stamp %v", c.CheckedAt, stamp)
	}
	if next := c.NextCheckBy(time.Hour); next == nil || !next.Equal(stamp.Add(20*time.Minute)) {
		t.Fatalf("next check by %v, want the Forced Poll", next)
	}
	lastLone := t0.Add(28 * day).Truncate(time.Minute)
	if len(c.Sightings) != 4 || !c.Sightings[0].Equal(lastLone) {
		t.Fatalf("sightings %v, want 4 to the minute, newest %v (the first read records none)", c.Sightings, lastLone)
	}
	if e := store.Expect(c.Sightings, ""); e == nil || !e.From.Equal(lastLone.Add(6*day)) || !e.To.Equal(lastLone.Add(8*day)) {
		t.Fatalf("lone expected %+v", e)
	}
	list, err := w.st.ListBookmarks(w.ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range list { // the list's one aggregate gives each bookmark the library's own
		e, err := w.st.LibraryEntry(w.ctx, r, b.Site, b.SeriesID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(b.Clock, e.Clock) {
			t.Fatalf("%s/%s: the bookmark list's clock %+v, the library's %+v", b.Site, b.SeriesID, b.Clock, e.Clock)
		}
	}
	page, err := w.st.LibraryPage(w.ctx, r, store.LibraryQuery{PerPage: 10})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, card := range page.Cards {
		for _, it := range card.Items {
			if it.Site == "mangapill" {
				found = reflect.DeepEqual(it.Clock, c)
			}
		}
	}
	if !found {
		t.Fatal("the library page's clock differs from the library's")
	}

	work, err := w.st.ReaderWork(w.ctx, r, wk, t0.Add(30*day))
	if err != nil {
		t.Fatal(err)
	}
	wc, site := work.Clock()
	want := []time.Time{t0.Add(28 * day), t0.Add(21 * day), t0.Add(13 * day), t0.Add(6 * day)}
	if site != "mangadex" || !sameTimes(wc.Sightings, want) {
		t.Fatalf("the Work's clock on %s: sightings %v, want %v", site, wc.Sightings, want)
	}
	if wc.FailingSince == nil || !wc.FailingSince.Equal(t0.Add(26*day)) {
		t.Fatalf("the Work's failure %v", wc.FailingSince)
	}
	e := store.Expect(wc.Sightings, "")
	if e == nil || e.Interval != 7*day {
		t.Fatalf("the Work's expected %+v, want weekly", e)
	}
	if got := store.Overdue(e, "", wc.FailingSince, t0.Add(43*day)); got != store.OverdueFailing {
		t.Fatalf("overdue %q, want failing", got)
	}
}

func sameTimes(a, b []time.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// TestContinueNeverSkips: Continue leads to the chapter after Progress
// when a Lane saw its page, and to the Series page naming it when a read
// brought several chapters at once (only the newest is an event), on a
// lone Series and on a Work.
func TestContinueNeverSkips(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	w.bookmark(r, "mangapill", "seen", t0.Add(-time.Hour))
	w.bookmark(r, "mangapill", "jump", t0.Add(-time.Hour))
	for _, id := range []string{"seen", "jump"} {
		w.read("mangapill", id, "10", t0)
		w.progress(r, "mangapill", id, "10")
	}
	w.read("mangapill", "seen", "11", t0.Add(time.Hour))
	w.read("mangapill", "seen", "12", t0.Add(2*time.Hour))
	w.read("mangapill", "jump", "13", t0.Add(time.Hour)) // 11 and 12 came with it, unseen
	cont := func(id string) store.Continue {
		it, err := w.st.LibraryEntry(w.ctx, r, "mangapill", id)
		if err != nil {
			t.Fatal(err)
		}
		return store.ContinueAfter(it.ProgressNumber, it.ContinueNumber, it.ContinueURL, it.URL)
	}
	if got, want := cont("seen"), (store.Continue{Number: "11", URL: "https://mangapill.example/seen/11"}); got != want {
		t.Fatalf("seen: %+v, want %+v", got, want)
	}
	if got, want := cont("jump"), (store.Continue{Number: "11", URL: "https://mangapill.example/jump", Pick: true}); got != want {
		t.Fatalf("jump: %+v, want %+v", got, want)
	}
	// A Work: mangadex shows 20 then 23 (21, 22 unseen); comix shows 21.
	wk := w.twoMemberWork(r, "20", "19")
	w.progress(r, "mangadex", "a", "20")
	w.read("mangadex", "a", "23", t0.Add(time.Hour))
	work, err := w.st.ReaderWork(w.ctx, r, wk, t0)
	if err != nil {
		t.Fatal(err)
	}
	if got := store.ContinueAfter(work.ProgressNumber, work.ContinueNumber, work.ContinueURL, ""); !got.Pick || got.Number != "21" {
		t.Fatalf("the Work before comix shows 21: %+v (%s on %s), want the Series page naming 21", got, work.ContinueNumber, work.ContinueSite)
	}
	w.read("comix", "b", "21", t0.Add(2*time.Hour))
	if work, err = w.st.ReaderWork(w.ctx, r, wk, t0); err != nil {
		t.Fatal(err)
	}
	got := store.ContinueAfter(work.ProgressNumber, work.ContinueNumber, work.ContinueURL, "")
	if want := (store.Continue{Number: "21", URL: "https://comix.example/b/21"}); got != want || work.ContinueSite != "comix" {
		t.Fatalf("the Work once comix shows 21: %+v on %s, want %+v", got, work.ContinueSite, want)
	}
}

// GET /api/bookmarks' one aggregate (loneSightingsSQL) gives each
// bookmark the sightings the library's own statement gives it: the newest
// MaxSightings, to the minute, two chapters in one minute one sighting,
// over several bookmarks at once.
func TestBookmarkListSightings(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	var evs []storetest.ChapterEventOpts
	for s, site := range []string{"mangapill", "comix", "weebcentral"} {
		w.bookmark(r, site, "x", t0.Add(-time.Hour))
		for n := 1; n <= 14+s; n++ {
			at := t0.Add(time.Duration(n)*3*day + time.Duration(s)*time.Hour + time.Duration(n%3)*time.Second)
			if n%5 == 0 { // with the one before, in the same minute
				at = t0.Add(time.Duration(n-1)*3*day + time.Duration(s)*time.Hour + 30*time.Second)
			}
			evs = append(evs, storetest.ChapterEventOpts{Site: site, SeriesID: "x", Number: strconv.Itoa(n), SeenAt: &at})
		}
	}
	storetest.ChapterEvents(w.ctx, t, w.st, evs...)
	list, err := w.st.ListBookmarks(w.ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 {
		t.Fatalf("%d bookmarks, want 3", len(list))
	}
	for _, b := range list {
		e, err := w.st.LibraryEntry(w.ctx, r, b.Site, b.SeriesID)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Clock.Sightings) != store.MaxSightings || !reflect.DeepEqual(b.Clock.Sightings, e.Clock.Sightings) {
			t.Fatalf("%s: the list's sightings %v, the library's %v", b.Site, b.Clock.Sightings, e.Clock.Sightings)
		}
	}
}
