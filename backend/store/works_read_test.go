package store_test

import (
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

func TestReaderWorks(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r, other := w.reader("1"), w.reader("2")
	wk := w.twoMemberWork(r, "120", "20")
	if err := w.st.SetSharedMemberOffset(w.ctx, wk, "comix", "b", "101"); err != nil {
		t.Fatal(err)
	}
	if err := w.st.SetSharedMemberOffset(w.ctx, wk, "comix", "nope", "1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("offset of a non-member: %v", err)
	}
	w.progress(r, "mangadex", "a", "119")
	now := t0.Add(48 * time.Hour)
	if err := w.st.UpsertFailure(w.ctx, "mangadex", "a", "not_found", now.Add(-25*time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, err := w.st.ReaderWork(w.ctx, r, wk, now)
	if err != nil {
		t.Fatal(err)
	}
	if got.Latest == nil || got.Latest.Number != "121" || got.Latest.Site != "comix" {
		t.Fatalf("Work Latest %+v, want comix's 20 + 101 = 121", got.Latest)
	}
	if got.ProgressNumber != "119" || !got.New || len(got.Members) != 2 {
		t.Fatalf("Work %+v: want Progress 119, new, two members", got)
	}
	if m := got.Members[1]; m.Site != "mangadex" || m.FailingOutcome != "not_found" || m.LinkedBy != "id:al" {
		t.Fatalf("member %+v: want mangadex failing not_found, linked by id:al", m)
	}
	if got.Offer != nil {
		t.Fatalf("offer %+v to a Reader who also bookmarks the working member", got.Offer)
	}
	// A Reader whose only bookmark in the Work is the failing member is
	// offered the working one; a failure under a day offers nothing.
	only := w.reader("3")
	w.bookmark(only, "mangadex", "a", t0)
	if o, err := w.st.ReaderWork(w.ctx, only, wk, now); err != nil || o.Offer == nil || o.Offer.Site != "comix" {
		t.Fatalf("offer %+v (%v), want comix", o.Offer, err)
	}
	if o, err := w.st.ReaderWork(w.ctx, only, wk, now.Add(-24*time.Hour)); err != nil || o.Offer != nil {
		t.Fatalf("a failure of one hour offers %+v (%v), want nothing", o.Offer, err)
	}
	list, err := w.st.ReaderWorks(w.ctx, r, now)
	if err != nil || len(list) != 1 || list[0].ID != wk {
		t.Fatalf("works %+v %v", list, err)
	}
	if _, err := w.st.ReaderWork(w.ctx, other, wk, now); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another Reader's Work: %v, want ErrNotFound", err)
	}
	if list, err := w.st.ReaderWorks(w.ctx, other, now); err != nil || len(list) != 0 {
		t.Fatalf("another Reader's works %+v %v, want none", list, err)
	}
}

func TestSuggestionsOnlySuggest(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r, other := w.reader("1"), w.reader("2")
	w.bookmark(r, "mangadex", "a", t0)
	w.bookmark(r, "comix", "b", t0) // suggestions come from the Reader's own library
	w.bookmark(r, "mangapill", "c", t0)
	w.bookmark(r, "weebcentral", "d", t0)
	w.bookmark(other, "comix", "b", t0)
	w.readWith("mangadex", "a", "10", t0, []string{"Kuuhaku no Uneri"})
	w.exec(`UPDATE series SET title = 'The Void Swell' WHERE series_id = 'a'`)
	w.exec(`UPDATE series SET title = 'Void Swell' WHERE series_id = 'b'`)
	w.exec(`UPDATE series SET title = 'Something Else', alt_titles = '{"Kuuhaku no Uneri"}' WHERE series_id = 'c'`)
	w.exec(`UPDATE series SET title = 'Cooking Papa' WHERE series_id = 'd'`)
	card, err := w.st.ReaderSeries(w.ctx, r, "mangadex", "a")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, g := range card.Suggestions {
		got[g.Site] = true
	}
	if !got["comix"] || !got["mangapill"] || got["weebcentral"] || got["mangadex"] || len(card.Suggestions) != 2 {
		t.Fatalf("suggestions %+v: want comix (title) and mangapill (other title) only", card.Suggestions)
	}
	if n := w.count(`SELECT count(*) FROM work_members`); n != 0 {
		t.Fatal("a suggestion linked Series")
	}
	if _, err := w.st.ReaderSeries(w.ctx, other, "mangadex", "a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a Series the Reader does not bookmark: %v", err)
	}
}
