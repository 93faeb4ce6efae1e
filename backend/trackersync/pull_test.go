package trackersync_test

import (
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist"
	"mangabookmark/backend/trackersync"
)

func TestSaveRefusesUnknownUser(t *testing.T) {
	w := newWorld(t)
	svc := w.service("p1")
	r := w.reader("ann")
	err := svc.Save(w.ctx, r, anilist.Name, "nobody", true, false)
	var ref *trackersync.Refusal
	if !errors.As(err, &ref) || ref.Reason == "" {
		t.Fatalf("save of an unknown user = %v, want a *Refusal", err)
	}
	if _, err := w.st.TrackerAccount(w.ctx, r, anilist.Name); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a refused user name was stored: %v", err)
	}
	w.al.AddUser("ann")
	if err := svc.Save(w.ctx, r, anilist.Name, "ann", true, true); !errors.As(err, &ref) {
		t.Fatalf("push without a token = %v, want a *Refusal", err)
	}
	if err := svc.Save(w.ctx, r, anilist.Name, "ann", true, false); err != nil {
		t.Fatal(err)
	}
	if a := w.account(r); a.State != store.TrackerOK || !a.Pull || a.Push || a.Username != "ann" {
		t.Fatalf("account = %+v", a)
	}
}

func TestPullMovesProgressForwardOnly(t *testing.T) {
	w := newWorld(t)
	svc := w.service("p1")
	r := w.reader("ann")
	w.series("mangadex", "up", "40", "101")   // AniList says 30: moves from 12
	w.series("mangadex", "down", "60", "102") // AniList says 20: we read 50, stays
	w.series("mangadex", "past", "10", "103") // AniList says 25, past the Latest: read elsewhere, stands
	w.series("mangadex", "fresh", "", "104")  // never read here: moves from none
	w.series("mangadex", "noid", "9", "")     // no id: untouched
	w.series("comix", "other", "", "105")     // not bookmarked: no bookmark made
	for id, n := range map[string]string{"up": "12", "down": "50", "past": "3", "fresh": "", "noid": "4"} {
		w.bookmark(r, "mangadex", id, n)
	}
	w.al.AddUser("ann", entry("101", 30, trackers.StatusCurrent), entry("102", 20, trackers.StatusCurrent),
		entry("103", 25, trackers.StatusCurrent), entry("104", 7, trackers.StatusPlanning),
		entry("105", 3, trackers.StatusCurrent), entry("999", 44, trackers.StatusPaused))
	w.setUp(svc, r, "ann", "")

	if pulled, moved := w.pull(svc); pulled != 1 || moved != 3 {
		t.Fatalf("pull: %d Readers pulled, %d moved; want 1 and 3", pulled, moved)
	}
	for id, want := range map[string]string{"up": "30", "down": "50", "past": "25", "fresh": "7", "noid": "4"} {
		got, src := w.progress(r, "mangadex", id)
		if got != want {
			t.Errorf("%s: Progress %s, want %s", id, got, want)
		}
		if wantSrc := map[bool]string{true: "anilist", false: "reader"}[id == "up" || id == "past" || id == "fresh"]; src != wantSrc {
			t.Errorf("%s: source %q, want %q", id, src, wantSrc)
		}
	}
	var n int
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT count(*) FROM bookmarks WHERE reader_id = $1`, r).Scan(&n); err != nil || n != 5 {
		t.Fatalf("bookmarks after a pull: %d (%v), want the 5 there were", n, err)
	}
	un, err := svc.Unmatched(w.ctx, r, anilist.Name)
	if err != nil || len(un) != 2 || un[0].MediaID != "105" || un[1].MediaID != "999" || un[1].Progress != 44 {
		t.Fatalf("unmatched = %+v (%v), want 105 and 999", un, err)
	}
	a := w.account(r)
	if a.LastPullAt == nil || !a.LastPullAt.Equal(w.clock.Now()) || a.NextPullAt == nil || !a.NextPullAt.Equal(w.clock.Now().Add(trackersync.DefaultPullEvery)) {
		t.Fatalf("account times = %+v", a)
	}
	// Not due again before the interval: nothing is pulled.
	before := w.al.Requests(trackers.KindList)
	if pulled, _ := w.pull(svc); pulled != 0 || w.al.Requests(trackers.KindList) != before {
		t.Fatalf("a pull ran before its interval")
	}
	// The Reader lowered a count on AniList: we are never lowered.
	w.al.SetEntry("ann", entry("101", 5, trackers.StatusCurrent))
	w.clock.Advance(trackersync.DefaultPullEvery)
	if pulled, moved := w.pull(svc); pulled != 1 || moved != 0 {
		t.Fatalf("second pull: %d pulled, %d moved; want 1, 0", pulled, moved)
	}
	if got, _ := w.progress(r, "mangadex", "up"); got != "30" {
		t.Fatalf("a lower remote lowered Progress to %s", got)
	}
}

func TestPullThroughWorkMember(t *testing.T) {
	w := newWorld(t)
	svc := w.service("p1")
	r := w.reader("ann")
	// The Reader bookmarks the Comix member; only the MangaDex member of
	// the same Work carries the AniList id.
	w.series("mangadex", "md", "30", "201")
	w.series("comix", "cx", "30", "")
	storetest.Works(w.ctx, t, w.st, storetest.WorkOpts{Members: []storetest.MemberOpts{
		{Site: "mangadex", SeriesID: "md", LinkedBy: "reader"}, {Site: "comix", SeriesID: "cx", LinkedBy: "reader"}}})
	w.bookmark(r, "comix", "cx", "4")
	w.al.AddUser("ann", entry("201", 21, trackers.StatusCurrent))
	w.setUp(svc, r, "ann", "")
	if _, moved := w.pull(svc); moved != 1 {
		t.Fatalf("moved %d, want 1", moved)
	}
	if got, _ := w.progress(r, "comix", "cx"); got != "21" {
		t.Fatalf("Work member's Progress %s, want 21", got)
	}
}

func TestPullOwesNothingAtOrBelow(t *testing.T) {
	w := newWorld(t)
	svc := w.service("p1")
	r := w.reader("ann")
	w.series("mangadex", "s", "", "301")
	w.bookmark(r, "mangadex", "s", "10")
	// Chapters 11 and 12 are owed to the Reader; AniList says they read 11.
	storetest.ChapterEvents(w.ctx, t, w.st,
		storetest.ChapterEventOpts{Site: "mangadex", SeriesID: "s", Number: "11", Title: "c11", URL: "https://mangadex.test/c/11"},
		storetest.ChapterEventOpts{Site: "mangadex", SeriesID: "s", Number: "12", Title: "c12", URL: "https://mangadex.test/c/12"})
	storetest.Notices(w.ctx, t, w.st,
		storetest.NoticeOpts{ReaderID: r, Site: "mangadex", SeriesID: "s", Number: "11"},
		storetest.NoticeOpts{ReaderID: r, Site: "mangadex", SeriesID: "s", Number: "12"})
	w.al.AddUser("ann", entry("301", 11, trackers.StatusCurrent))
	w.setUp(svc, r, "ann", "")
	w.pull(svc)
	// The notice sender's own read: which owed notices are still owed.
	var owed []string
	_, err := w.st.MakeDigests(w.ctx, time.Now().Add(time.Hour), 10, func(in store.DigestInput) store.DigestPlan {
		for _, n := range in.Owed {
			if !n.CaughtUp {
				owed = append(owed, n.Number)
			}
		}
		return store.DigestPlan{}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(owed) != 1 || owed[0] != "12" {
		t.Fatalf("owed after the pull = %v, want only 12", owed)
	}
}

func TestPullUnknownUserFailsAndBacksOff(t *testing.T) {
	w := newWorld(t)
	svc := w.service("p1")
	r := w.reader("ann")
	w.al.AddUser("ann")
	w.setUp(svc, r, "ann", "")
	// The user is renamed on AniList after Save checked it.
	storetest.SetTrackerAccount(w.ctx, t, w.st, storetest.TrackerAccountSet{ReaderID: r, Service: anilist.Name, Username: "gone"})
	if pulled, _ := w.pull(svc); pulled != 1 {
		t.Fatalf("pulled %d", pulled)
	}
	a := w.account(r)
	if a.State != store.TrackerFailing || a.Error == "" || a.NextPullAt == nil || !a.NextPullAt.After(w.clock.Now().Add(trackersync.DefaultPullEvery-time.Second)) {
		t.Fatalf("account after an unknown user = %+v", a)
	}
	// Back-off doubles: the second failure waits two intervals.
	w.clock.Advance(trackersync.DefaultPullEvery)
	w.pull(svc)
	if a := w.account(r); !a.NextPullAt.Equal(w.clock.Now().Add(2 * trackersync.DefaultPullEvery)) {
		t.Fatalf("second back-off: next %v, want now+2 intervals", a.NextPullAt)
	}
	// Fixed: the next pull clears the failure.
	storetest.SetTrackerAccount(w.ctx, t, w.st, storetest.TrackerAccountSet{ReaderID: r, Service: anilist.Name, Username: "ann"})
	if err := svc.PullNow(w.ctx, r, anilist.Name); err != nil {
		t.Fatal(err)
	}
	w.pull(svc)
	if a := w.account(r); a.State != store.TrackerOK || a.Error != "" {
		t.Fatalf("after a good pull: %+v", a)
	}
}

func TestRateLimitedPullWaitsRetryAfter(t *testing.T) {
	w := newWorld(t)
	svc := w.service("p1")
	r := w.reader("ann")
	w.series("mangadex", "s", "", "401")
	w.bookmark(r, "mangadex", "s", "1")
	w.al.AddUser("ann", entry("401", 9, trackers.StatusCurrent))
	w.setUp(svc, r, "ann", "")
	w.al.RateLimit(1, 42*time.Second)
	before := w.clock.Slept()
	if _, moved := w.pull(svc); moved != 1 {
		t.Fatalf("moved %d after a 429, want 1 (asked again after the wait)", moved)
	}
	if slept := w.clock.Slept() - before; slept < 42*time.Second {
		t.Fatalf("waited %s after a 429 with Retry-After 42, want at least 42s", slept)
	}
}

func TestOneProcessPullsAReader(t *testing.T) {
	w := newWorld(t)
	a, b := w.service("process-a"), w.service("process-b")
	r := w.reader("ann")
	w.al.AddUser("ann")
	w.setUp(a, r, "ann", "")
	// a holds the lease (as if its pull were under way); b finds nothing.
	claims, err := w.st.ClaimTrackerPulls(w.ctx, anilist.Name, "process-a", w.clock.Now(), time.Minute, 10)
	if err != nil || len(claims) != 1 {
		t.Fatalf("claim: %v %v", claims, err)
	}
	if pulled, _ := w.pull(b); pulled != 0 {
		t.Fatalf("process b pulled a Reader process a holds")
	}
	// A process that died: its lease runs out, and b takes the Reader.
	w.clock.Advance(time.Minute)
	if pulled, _ := w.pull(b); pulled != 1 {
		t.Fatalf("process b did not take an expired lease")
	}
	// a's late result is dropped: its lease passed on.
	_, err = w.st.ApplyTrackerPull(w.ctx, store.TrackerPulled{ReaderID: r, Service: anilist.Name, Owner: "process-a",
		Now: w.clock.Now(), Next: w.clock.Now()})
	if !errors.Is(err, store.ErrTrackerLeaseLost) {
		t.Fatalf("late apply = %v, want ErrTrackerLeaseLost", err)
	}
}

func TestTwoProcessesRacingPullOnce(t *testing.T) {
	w := newWorld(t)
	a, b := w.service("process-a"), w.service("process-b")
	for i := range 6 {
		name := string(rune('a' + i))
		r := w.reader(name)
		w.al.AddUser(name)
		w.setUp(a, r, name, "")
	}
	before := w.al.Requests(trackers.KindList)
	type res struct{ pulled int }
	out := make(chan res, 2)
	for _, svc := range []*trackersync.Service{a, b} {
		go func() {
			p, _, err := svc.PullOnce(w.ctx)
			if err != nil {
				t.Error(err)
			}
			out <- res{p}
		}()
	}
	total := (<-out).pulled + (<-out).pulled
	if total != 6 || w.al.Requests(trackers.KindList)-before != 6 {
		t.Fatalf("two processes pulled %d Readers with %d list reads; want each of the 6 pulled once",
			total, w.al.Requests(trackers.KindList)-before)
	}
}
