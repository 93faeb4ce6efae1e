package trackersync_test

import (
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackersync"
)

// stateOf reads the Reader's stored state of a bookmark and whether it was
// set by hand.
func (w *world) stateOf(reader int64, site, id string) (string, bool) {
	w.t.Helper()
	var st string
	var hand bool
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT state, state_by_hand FROM bookmarks
		WHERE reader_id = $1 AND site = $2 AND series_id = $3`, reader, site, id).Scan(&st, &hand); err != nil {
		w.t.Fatal(err)
	}
	return st, hand
}

// The pull takes the list's status as the reading state of a bookmark
// whose state the Reader never set by hand (PAUSED is on hold, REPEATING
// rereading, and a later pull may change it again), and leaves one they
// set by hand.
func TestPullTakesTheStatusUnlessSetByHand(t *testing.T) {
	w := newWorld(t)
	svc := w.service("p1")
	r := w.reader("ann")
	w.series("mangadex", "paused", "10", "201")
	w.series("mangadex", "again", "10", "202")
	w.series("mangadex", "mine", "10", "203")
	for _, id := range []string{"paused", "again", "mine"} {
		w.bookmark(r, "mangadex", id, "5")
	}
	if err := w.st.SetBookmarkState(w.ctx, r, "mangadex", "mine", store.StatePlan, w.clock.Now()); err != nil {
		t.Fatal(err)
	}
	w.al.AddUser("ann", entry("201", 5, trackers.StatusPaused), entry("202", 5, trackers.StatusRepeating),
		entry("203", 5, trackers.StatusDropped))
	w.setUp(svc, r, "ann", "")
	w.pull(svc)
	for id, want := range map[string]string{"paused": "on_hold", "again": "rereading", "mine": "plan"} {
		if got, hand := w.stateOf(r, "mangadex", id); got != want || hand != (id == "mine") {
			t.Errorf("%s: state %s (by hand %v), want %s", id, got, hand, want)
		}
	}
	w.al.SetEntry("ann", entry("201", 5, trackers.StatusCurrent))
	w.clock.Advance(trackersync.DefaultPullEvery)
	w.pull(svc)
	if got, _ := w.stateOf(r, "mangadex", "paused"); got != "reading" {
		t.Fatalf("a second pull: %s, want reading (the list changed, and the state was never set by hand)", got)
	}
}

// A push sends the state the Reader set by hand as the entry's status,
// with the count never lowered.
func TestPushSendsTheStateSetByHand(t *testing.T) {
	w, svc, r := pushWorld(t, entry("501", 10, trackers.StatusCurrent))
	w.pull(svc)
	if err := w.st.SetBookmarkState(w.ctx, r, "mangadex", "s", store.StateOnHold, w.clock.Now()); err != nil {
		t.Fatal(err)
	}
	w.read(r, "mangadex", "s", "12")
	w.push(svc)
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	if got := w.push(svc); got != 1 {
		t.Fatalf("pushed %d, want 1", got)
	}
	if e, _ := w.al.Entry("ann", "501"); e.Progress != 12 || e.Status != trackers.StatusPaused {
		t.Fatalf("remote = %+v, want 12 PAUSED", e)
	}
	// Read further elsewhere: our state goes with the next push, the count stays the higher.
	w.al.SetEntry("ann", entry("501", 30, trackers.StatusCurrent))
	if err := w.st.SetBookmarkState(w.ctx, r, "mangadex", "s", store.StateCompleted, w.clock.Now()); err != nil {
		t.Fatal(err)
	}
	w.read(r, "mangadex", "s", "13")
	w.clock.Advance(time.Second)
	w.push(svc)
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	w.push(svc)
	if e, _ := w.al.Entry("ann", "501"); e.Progress != 30 || e.Status != trackers.StatusCompleted {
		t.Fatalf("remote = %+v, want 30 (never lowered) COMPLETED (ours)", e)
	}
}
