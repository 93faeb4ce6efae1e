package store_test

import (
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// Told once: a chapter number the first member shows owes one notice to
// each Reader of any member of the Work; the second member showing the
// same number 30 minutes later owes nothing.
func TestWorkToldOncePerNumber(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	both, onlyB := w.reader("1"), w.reader("2")
	w.twoMemberWork(both, "20", "20")
	w.bookmark(onlyB, "comix", "b", t0.Add(-time.Hour))
	w.progress(both, "mangadex", "a", "20")
	w.progress(onlyB, "comix", "b", "20")

	if got := w.readWith("mangadex", "a", "21", t0.Add(time.Hour), nil); !got.Event || got.Owed != 2 {
		t.Fatalf("mangadex shows 21 first: event %v owed %d, want 2 (one per Reader of the Work)", got.Event, got.Owed)
	}
	if got := w.readWith("comix", "b", "21", t0.Add(90*time.Minute), nil); got.Owed != 0 {
		t.Fatalf("comix shows 21 30 minutes later: owed %d, want 0", got.Owed)
	}
	if n := w.count(`SELECT count(*) FROM reader_notices WHERE reader_id = $1`, both); n != 1 {
		t.Fatalf("the Reader of both members is owed %d notices of 21, want 1", n)
	}
	// The Reader who bookmarks only comix is told on their own bookmark,
	// of the chapter where it appeared first.
	if n := w.count(`SELECT count(*) FROM reader_notices n JOIN chapter_events e ON e.id = n.event_id
		WHERE n.reader_id = $1 AND n.site = 'comix' AND n.number = 21 AND e.site = 'mangadex'`, onlyB); n != 1 {
		t.Fatal("the comix-only Reader is not owed mangadex's 21 on their comix bookmark")
	}
	w.readWith("comix", "b", "22", t0.Add(2*time.Hour), nil)
	if got := w.readWith("mangadex", "a", "22", t0.Add(3*time.Hour), nil); got.Owed != 0 {
		t.Fatalf("22 shown again by the second member: owed %d", got.Owed)
	}
	// A read on the other member catches the Reader up on the Work's
	// notice at send time (its own Series never showed 21 first).
	w.exec(`INSERT INTO bookmarks (reader_id, site, series_id) VALUES ($1, 'mangadex', 'a')`, onlyB)
	w.progress(onlyB, "mangadex", "a", "21")
	type key struct {
		reader int64
		number string
	}
	caught := map[key]bool{}
	if _, err := w.st.MakeDigests(w.ctx, t0.Add(10*time.Hour), 10, func(in store.DigestInput) store.DigestPlan {
		for _, o := range in.Owed {
			caught[key{in.Reader.ID, o.Number}] = o.CaughtUp
		}
		return store.DigestPlan{}
	}); err != nil {
		t.Fatal(err)
	}
	if !caught[key{onlyB, "21"}] || caught[key{onlyB, "22"}] || caught[key{both, "21"}] {
		t.Fatalf("caught up %v: want the Reader who read 21 on mangadex caught up on comix's notice, the other not", caught)
	}
}

// A number below the Work's highest was told (or skipped) already: a
// member that shows it later owes nothing, though no notice carried it.
func TestWorkNumberBelowHighestOwesNothing(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	w.twoMemberWork(r, "20", "20")
	w.progress(r, "comix", "b", "20")
	if got := w.readWith("mangadex", "a", "23", t0.Add(time.Hour), nil); got.Owed != 1 {
		t.Fatalf("mangadex 23: owed %d, want 1", got.Owed)
	}
	if got := w.readWith("comix", "b", "21", t0.Add(2*time.Hour), nil); !got.Event || got.Owed != 0 {
		t.Fatalf("comix 21 under the Work's 23: event %v owed %d, want an event owing nothing", got.Event, got.Owed)
	}
}

// A member that stands more than the margin above the others for over a
// day is flagged and owes nothing; before a day it still tells.
func TestWorkDriftHeld(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	w.twoMemberWork(r, "20", "20")
	w.progress(r, "comix", "b", "20")

	if got := w.readWith("mangadex", "a", "40", t0.Add(time.Hour), nil); got.Owed != 1 {
		t.Fatalf("a first jump owes %d, want 1 (drift is held only after a day)", got.Owed)
	}
	var since *time.Time
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT drift_since FROM work_members WHERE site = 'mangadex'`).Scan(&since); err != nil || since == nil || !since.Equal(t0.Add(time.Hour)) {
		t.Fatalf("drift_since %v (%v), want the jump's time", since, err)
	}
	if got := w.readWith("mangadex", "a", "41", t0.Add(26*time.Hour), nil); got.Owed != 0 {
		t.Fatalf("a member drifted for over a day owes %d, want 0", got.Owed)
	}
	// The others catch up: the drift ends and the member tells again.
	w.readWith("comix", "b", "39", t0.Add(27*time.Hour), nil)
	if got := w.readWith("mangadex", "a", "42", t0.Add(28*time.Hour), nil); got.Owed != 1 {
		t.Fatalf("after the others caught up: owed %d, want 1", got.Owed)
	}
	if n := w.count(`SELECT count(*) FROM work_members WHERE drift_since IS NOT NULL`); n != 0 {
		t.Fatalf("%d members still drifted", n)
	}
}
