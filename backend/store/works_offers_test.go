package store_test

import (
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// offerWorld: mangadex/a and comix/b are one Work (comix numbers 100
// below: offset 100); mangadex/a has failed since t0. Reader only
// bookmarks mangadex/a only and read it to 118; Reader both bookmarks
// both. Each also bookmarks mangapill/z, whose chapters make Digests.
func offerWorld(t *testing.T) (w *noticeWorld, only, both, wk int64) {
	w = newNoticeWorld(t)
	only, both = w.reader("1"), w.reader("2")
	wk = w.twoMemberWork(both, "120", "20")
	if err := w.st.SetSharedMemberOffset(w.ctx, wk, "comix", "b", "100"); err != nil {
		t.Fatal(err)
	}
	w.bookmark(only, "mangadex", "a", t0.Add(-time.Hour))
	for _, r := range []int64{only, both} {
		w.bookmark(r, "mangapill", "z", t0.Add(-time.Hour))
	}
	w.read("mangapill", "z", "1", t0)
	w.progress(only, "mangadex", "a", "118")
	if err := w.st.UpsertFailure(w.ctx, "mangadex", "a", "not_found", t0); err != nil {
		t.Fatal(err)
	}
	return w, only, both, wk
}

// offersIn runs one Digest claim at now that sends every owed notice and
// returns the offers each Reader was told.
func (w *noticeWorld) offersIn(now time.Time) map[int64][]store.FollowOffer {
	w.t.Helper()
	out := map[int64][]store.FollowOffer{}
	if _, err := w.st.MakeDigests(w.ctx, now, 10, func(in store.DigestInput) store.DigestPlan {
		p := store.DigestPlan{Outcomes: map[int]string{}}
		for i := range in.Owed {
			p.Outcomes[i] = store.NoticeSent
		}
		if len(in.Owed) > 0 {
			p.Deliveries = []store.NewDelivery{{Outlet: "webhook", Target: "t", Payload: []byte(`{}`), FirstSeen: now}}
		}
		out[in.Reader.ID] = in.Offers
		return p
	}); err != nil {
		w.t.Fatal(err)
	}
	return out
}

// The Reader whose only bookmark is the failing member is offered comix
// once, in their next Digest; the Reader who bookmarks comix too is not.
func TestFollowOfferToldOnce(t *testing.T) {
	t.Parallel()
	w, only, both, wk := offerWorld(t)
	day := t0.Add(25 * time.Hour)
	w.read("mangapill", "z", "2", t0)
	w.exec(`UPDATE reader_notices SET seen_at = $1`, day.Add(-time.Hour))
	got := w.offersIn(day)
	if o := got[only]; len(o) != 1 || o[0].WorkID != wk || o[0].ToSite != "comix" || o[0].Site != "mangadex" {
		t.Fatalf("offers to the failing member's Reader: %+v, want comix once", o)
	}
	if o := got[both]; len(o) != 0 {
		t.Fatalf("offers to a Reader who bookmarks the working member: %+v", o)
	}
	w.read("mangapill", "z", "3", t0)
	w.exec(`UPDATE reader_notices SET seen_at = $1 WHERE done_at IS NULL`, day)
	if o := w.offersIn(day.Add(time.Hour))[only]; len(o) != 0 {
		t.Fatalf("the offer was told again: %+v", o)
	}
	// Still shown on the Work until decided; declined, never again.
	if v, err := w.st.ReaderWork(w.ctx, only, wk, day); err != nil || v.Offer == nil {
		t.Fatalf("the Work's offer before a decision: %+v (%v)", v.Offer, err)
	}
	if err := w.st.DeclineFollow(w.ctx, only, wk, day); err != nil {
		t.Fatal(err)
	}
	if v, err := w.st.ReaderWork(w.ctx, only, wk, day); err != nil || v.Offer != nil {
		t.Fatalf("the Work's offer after a decline: %+v (%v)", v.Offer, err)
	}
	if err := w.st.DeclineFollow(w.ctx, only, wk, day); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("declining again: %v, want ErrNotFound", err)
	}
}

// A failure under a day offers nothing, and a Digest without a delivery
// does not spend the offer.
func TestFollowOfferWaitsForADay(t *testing.T) {
	t.Parallel()
	w, only, _, _ := offerWorld(t)
	w.read("mangapill", "z", "2", t0)
	w.exec(`UPDATE reader_notices SET seen_at = $1`, t0.Add(10*time.Hour))
	if o := w.offersIn(t0.Add(23 * time.Hour))[only]; len(o) != 0 {
		t.Fatalf("offers after 23 hours of failure: %+v", o)
	}
	w.read("mangapill", "z", "3", t0)
	w.exec(`UPDATE reader_notices SET seen_at = $1 WHERE done_at IS NULL`, t0.Add(20*time.Hour))
	if o := w.offersIn(t0.Add(25 * time.Hour))[only]; len(o) != 1 {
		t.Fatalf("offers after 25 hours: %+v, want one", o)
	}
}

// Following instead bookmarks the offered member with Progress carried by
// number through the offsets, and ends the offer.
func TestFollowInsteadCarriesProgress(t *testing.T) {
	t.Parallel()
	w, only, _, wk := offerWorld(t)
	day := t0.Add(25 * time.Hour)
	if err := w.st.FollowInstead(w.ctx, only, wk, "mangapill", "z", day); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("following a Series of no Work: %v, want ErrNotFound", err)
	}
	if err := w.st.FollowInstead(w.ctx, only, wk, "comix", "b", day); err != nil {
		t.Fatal(err)
	}
	p, err := w.st.GetProgress(w.ctx, only, "comix", "b")
	if err != nil || p.Number != "18" {
		t.Fatalf("Progress on comix %+v (%v), want 118 - 100 = 18", p, err)
	}
	v, err := w.st.ReaderWork(w.ctx, only, wk, day)
	if err != nil || v.Offer != nil || v.ProgressNumber != "118" {
		t.Fatalf("the Work after following: offer %+v progress %q (%v)", v.Offer, v.ProgressNumber, err)
	}
	if n := w.count(`SELECT count(*) FROM work_offers WHERE reader_id = $1 AND state = 'accepted'`, only); n != 1 {
		t.Fatalf("%d accepted offers, want 1", n)
	}
	// Progress only moves forward: a second follow keeps a higher read.
	w.progress(only, "comix", "b", "30")
	if err := w.st.FollowInstead(w.ctx, only, wk, "comix", "b", day); err != nil {
		t.Fatal(err)
	}
	if p, _ := w.st.GetProgress(w.ctx, only, "comix", "b"); p.Number != "30" {
		t.Fatalf("Progress %q after a second follow, want 30 kept", p.Number)
	}
}
