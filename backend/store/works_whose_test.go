package store_test

import (
	"errors"
	"testing"

	"mangabookmark/backend/store"
)

// named stores an id as the Reader's own word (named by hand).
func (w *noticeWorld) named(reader int64, site, id string, x store.ExternalID) error {
	w.t.Helper()
	return w.st.NameSeriesID(w.ctx, reader, site, id, x)
}

// A Reader's id links in that Reader's library only; a second Reader
// naming the same id on the same Series confirms it, and the link then
// holds for everyone (ADR 0021, "Whose word").
func TestReadersWordLinksForEveryoneOnceASecondReaderSaysSo(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	ann, bob, carol := w.reader("1"), w.reader("2"), w.reader("3")
	for _, r := range []int64{ann, bob, carol} {
		w.bookmark(r, "mangadex", "a", t0)
		w.bookmark(r, "comix", "b", t0)
	}
	for _, s := range [][2]string{{"mangadex", "a"}, {"comix", "b"}} {
		if err := w.named(ann, s[0], s[1], al("42")); err != nil {
			t.Fatal(err)
		}
	}
	if wk, err := w.st.ReaderWorkOf(w.ctx, ann, "comix", "b"); err != nil || wk == 0 {
		t.Fatalf("Ann's own link: Work %d (%v)", wk, err)
	}
	if _, err := w.st.ReaderWorkOf(w.ctx, bob, "comix", "b"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Ann's word linked for Bob: %v", err)
	}
	// Bob names the same id on both: two Readers said so.
	for _, s := range [][2]string{{"mangadex", "a"}, {"comix", "b"}} {
		if err := w.named(bob, s[0], s[1], al("42")); err != nil {
			t.Fatal(err)
		}
	}
	wa, wb := w.workOf("mangadex", "a"), w.workOf("comix", "b")
	if wa == 0 || wa != wb {
		t.Fatalf("after two Readers: shared Works %d and %d, want one", wa, wb)
	}
	if wk, err := w.st.ReaderWorkOf(w.ctx, carol, "comix", "b"); err != nil || wk != wa {
		t.Fatalf("Carol sees Work %d (%v), want the shared %d", wk, err, wa)
	}
	if n := w.count(`SELECT count(*) FROM work_hand_links`); n != 0 {
		t.Fatalf("%d hand links left after the confirmation", n)
	}
}

// A Site's id on a Series a Reader named it on is shared: it links that
// Series with the Sites' other carriers for everyone, whoever named it
// first; a Reader's word alone never does.
func TestSitesWordLinksForEveryone(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	ann, bob := w.reader("1"), w.reader("2")
	w.bookmark(ann, "mangadex", "a", t0)
	w.bookmark(bob, "comix", "b", t0)
	w.readWith("mangadex", "a", "3", t0, nil, al("7"))
	if err := w.named(bob, "comix", "b", al("7")); err != nil {
		t.Fatal(err)
	}
	if got := w.workOf("mangadex", "a"); got != 0 {
		t.Fatalf("Bob's word put Ann's Series in shared Work %d", got)
	}
	if wk, err := w.st.ReaderWorkOf(w.ctx, bob, "comix", "b"); err != nil || wk == 0 {
		t.Fatalf("Bob's own link: %d (%v)", wk, err)
	}
	if _, err := w.st.ReaderWorkOf(w.ctx, ann, "mangadex", "a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Bob's word reached Ann's library: %v", err)
	}
	w.readWith("comix", "b", "4", t0, nil, al("7"))
	if wa, wb := w.workOf("mangadex", "a"), w.workOf("comix", "b"); wa == 0 || wa != wb {
		t.Fatalf("the Sites' own ids: Works %d and %d, want one shared", wa, wb)
	}
}

// A Work holds one Series per Site: a Reader's id or hand link past that
// is refused with a sentence, and nothing is saved.
func TestReadersLinkPastOneSeriesPerSiteRefused(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	for _, s := range [][2]string{{"mangadex", "a"}, {"comix", "b"}, {"comix", "c"}} {
		w.bookmark(r, s[0], s[1], t0)
	}
	if _, err := w.st.LinkByHand(w.ctx, r, store.SeriesRef{Site: "comix", SeriesID: "b"}, store.SeriesRef{Site: "comix", SeriesID: "c"}); !errors.Is(err, store.ErrWorkFull) {
		t.Fatalf("a hand link of two comix Series: %v, want ErrWorkFull", err)
	}
	wk, err := w.st.LinkByHand(w.ctx, r, store.SeriesRef{Site: "mangadex", SeriesID: "a"}, store.SeriesRef{Site: "comix", SeriesID: "b"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.st.LinkByHand(w.ctx, r, store.SeriesRef{Site: "mangadex", SeriesID: "a"}, store.SeriesRef{Site: "comix", SeriesID: "c"})
	var full *store.WorkFullError
	if !errors.As(err, &full) || full.WorkID != wk || full.Site != "comix" {
		t.Fatalf("a second comix Series in Work %d: %v", wk, err)
	}
	if err := w.named(r, "comix", "c", al("5")); err != nil {
		t.Fatal(err)
	}
	if err := w.named(r, "mangadex", "a", al("5")); !errors.As(err, &full) {
		t.Fatalf("naming an id that would join comix/c to Work %d: %v, want a WorkFullError", wk, err)
	}
	if n := w.count(`SELECT count(*) FROM series_ids WHERE site = 'mangadex'`); n != 0 {
		t.Fatalf("the refused id was saved (%d rows)", n)
	}
	if n := w.count(`SELECT count(*) FROM work_hand_links WHERE series_id = 'c'`); n != 0 {
		t.Fatal("comix/c joined the Work")
	}
}
