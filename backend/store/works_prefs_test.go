package store_test

import (
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// owedNow runs one digest claim at now and returns the Reader's owed
// notices the rules would judge, settling them as sent when send is set.
func (w *noticeWorld) owedNow(reader int64, now time.Time, send bool) []store.OwedNotice {
	w.t.Helper()
	var got []store.OwedNotice
	if _, err := w.st.MakeDigests(w.ctx, now, 10, func(in store.DigestInput) store.DigestPlan {
		p := store.DigestPlan{Outcomes: map[int]string{}}
		if in.Reader.ID == reader {
			got = append(got, in.Owed...)
		}
		if send {
			for i := range in.Owed {
				p.Outcomes[i] = store.NoticeSent
			}
		}
		return p
	}); err != nil {
		w.t.Fatal(err)
	}
	return got
}

// holdWorld: a Reader of mangadex/a and comix/b (one Work, both at 20,
// read to 20) who prefers comix, held up to 60 minutes.
func holdWorld(t *testing.T) (*noticeWorld, int64, int64) {
	w := newNoticeWorld(t)
	r := w.reader("1")
	wk := w.twoMemberWork(r, "20", "20")
	w.progress(r, "mangadex", "a", "20")
	if err := w.st.SetWorkPref(w.ctx, r, wk, store.WorkPref{Site: "mangapill", HoldMinutes: 60}); !errors.Is(err, store.ErrNotMemberSite) {
		t.Fatalf("a Site with no member: %v, want ErrNotMemberSite", err)
	}
	if err := w.st.SetWorkPref(w.ctx, r, wk, store.WorkPref{Site: "comix", HoldMinutes: 60}); err != nil {
		t.Fatal(err)
	}
	return w, r, wk
}

// The preferred member shows the number within the hold: the one notice
// waits for it and points at the preferred Site's chapter.
func TestHoldPreferredArrivesInTime(t *testing.T) {
	t.Parallel()
	w, r, wk := holdWorld(t)
	at := t0.Add(time.Hour)
	if got := w.readWith("mangadex", "a", "21", at, nil); got.Owed != 1 {
		t.Fatalf("mangadex shows 21 first: owed %d, want 1", got.Owed)
	}
	if got := w.owedNow(r, at.Add(30*time.Minute), true); len(got) != 0 {
		t.Fatalf("within the hold the notice was judged: %+v", got)
	}
	if got := w.readWith("comix", "b", "21", at.Add(40*time.Minute), nil); got.Owed != 0 {
		t.Fatalf("the preferred member owes %d more, want 0", got.Owed)
	}
	got := w.owedNow(r, at.Add(41*time.Minute), true)
	if len(got) != 1 || got[0].URL != "https://comix.example/b/21" || got[0].Site != "comix" {
		t.Fatalf("after the preferred member showed 21: %+v, want one notice of comix's chapter", got)
	}
	if n := w.count(`SELECT count(*) FROM reader_notices WHERE reader_id = $1`, r); n != 1 {
		t.Fatalf("%d notices, want 1", n)
	}
	wkv, err := w.st.ReaderWork(w.ctx, r, wk, at)
	if err != nil || wkv.Prefer == nil || wkv.Prefer.Site != "comix" || wkv.Prefer.HoldMinutes != 60 {
		t.Fatalf("the Work's preference %+v (%v)", wkv.Prefer, err)
	}
}

// The hold passes first: the notice goes from the first member, and the
// preferred member showing the number later owes nothing.
func TestHoldPassesSendsFirstMember(t *testing.T) {
	t.Parallel()
	w, r, _ := holdWorld(t)
	at := t0.Add(time.Hour)
	w.readWith("mangadex", "a", "21", at, nil)
	if got := w.owedNow(r, at.Add(59*time.Minute), false); len(got) != 0 {
		t.Fatalf("a minute before the hold ends: %+v", got)
	}
	got := w.owedNow(r, at.Add(61*time.Minute), true)
	if len(got) != 1 || got[0].URL != "https://mangadex.example/a/21" {
		t.Fatalf("after the hold: %+v, want one notice of mangadex's chapter", got)
	}
	if got := w.readWith("comix", "b", "21", at.Add(2*time.Hour), nil); got.Owed != 0 {
		t.Fatalf("the preferred member after the hold owes %d, want 0", got.Owed)
	}
	if n := w.count(`SELECT count(*) FROM reader_notices WHERE reader_id = $1`, r); n != 1 {
		t.Fatalf("%d notices, want 1", n)
	}
	// The preferred member showing a number first is not held.
	w.readWith("comix", "b", "22", at.Add(3*time.Hour), nil)
	if got := w.owedNow(r, at.Add(3*time.Hour+16*time.Minute), true); len(got) != 1 || got[0].Number != "22" {
		t.Fatalf("the preferred member first: %+v, want 22 at once", got)
	}
}
