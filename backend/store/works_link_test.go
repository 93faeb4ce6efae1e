package store_test

import (
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// readWith records a good read whose page carries ids and other titles.
func (w *noticeWorld) readWith(site, id, number string, at time.Time, alt []string, ids ...store.ExternalID) store.OKResult {
	w.t.Helper()
	r, err := w.st.RecordOK(w.ctx, site, id, store.ReadFacts{Title: "T " + id, Number: number,
		ChTitle: "Chapter " + number, ChURL: "https://" + site + ".example/" + id + "/" + number,
		IDs: ids, AltTitles: alt}, at)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

func (w *noticeWorld) workOf(site, id string) int64 {
	w.t.Helper()
	wk, err := w.st.WorkOf(w.ctx, site, id)
	if errors.Is(err, store.ErrNotFound) {
		return 0
	}
	if err != nil {
		w.t.Fatal(err)
	}
	return wk
}

func al(v string) store.ExternalID { return store.ExternalID{Kind: "al", Value: v} }
func mu(v string) store.ExternalID { return store.ExternalID{Kind: "mu", Value: v} }

func TestSharedIDLinksAtOnce(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r1, r2 := w.reader("1"), w.reader("2")
	w.bookmark(r1, "mangadex", "a", t0)
	w.bookmark(r2, "comix", "b", t0)
	w.bookmark(r2, "mangapill", "c", t0)

	w.readWith("mangadex", "a", "10", t0, []string{"Other A"}, al("30002"), mu("7cyaozt"))
	if got := w.workOf("mangadex", "a"); got != 0 {
		t.Fatalf("a Series alone with its ids is in Work %d, want none", got)
	}
	w.readWith("comix", "b", "11", t0.Add(time.Minute), nil, mu("7cyaozt"))
	wa, wb := w.workOf("mangadex", "a"), w.workOf("comix", "b")
	if wa == 0 || wa != wb {
		t.Fatalf("two Series sharing mu 7cyaozt: Works %d and %d, want one", wa, wb)
	}
	var by string
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT linked_by FROM work_members WHERE site = 'comix'`).Scan(&by); err != nil || by != "id:mu" {
		t.Fatalf("linked_by %q (%v), want id:mu", by, err)
	}
	if n := w.count(`SELECT count(*) FROM series_ids WHERE source = 'site'`); n != 3 {
		t.Fatalf("%d ids stored from the Sites, want 3", n)
	}
	if n := w.count(`SELECT count(*) FROM series WHERE alt_titles = '{"Other A"}'`); n != 1 {
		t.Fatal("the read's other titles were not stored")
	}

	// An id of another kind bridges a second Work in: they merge.
	w.readWith("mangapill", "c", "9", t0, nil, al("555"))
	w.bookmark(r1, "weebcentral", "d", t0)
	w.readWith("weebcentral", "d", "9", t0, nil, al("555"))
	wd := w.workOf("weebcentral", "d")
	if wd == 0 || wd == wa {
		t.Fatalf("c and d share al 555: Work %d (the first Work is %d)", wd, wa)
	}
	// (c's page now also lists mu 7cyaozt, as a's does.)
	w.readWith("mangapill", "c", "9", t0, nil, al("555"), mu("7cyaozt"))
	for _, m := range [][2]string{{"mangadex", "a"}, {"comix", "b"}, {"mangapill", "c"}, {"weebcentral", "d"}} {
		if got := w.workOf(m[0], m[1]); got != wa {
			t.Fatalf("after the bridge %s/%s is in Work %d, want %d", m[0], m[1], got, wa)
		}
	}
	if n := w.count(`SELECT count(*) FROM works`); n != 1 {
		t.Fatalf("%d Works after the merge, want 1", n)
	}
}

func TestLookAlikeTitleNeverLinks(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	w.bookmark(r, "mangadex", "a", t0)
	w.bookmark(r, "comix", "b", t0)
	w.exec(`UPDATE series SET title = 'Void Swell'`)
	w.readWith("mangadex", "a", "10", t0, []string{"Void Swell", "The Void Swell"}, al("1"))
	w.readWith("comix", "b", "10", t0, []string{"Void Swell"}, al("2"))
	if n := w.count(`SELECT count(*) FROM work_members`); n != 0 {
		t.Fatalf("%d members: Series with the same title but different ids were linked", n)
	}
}

// The shared unlink (the Owner's, or two Readers') holds for everyone:
// ids never link the member back to that Work.
func TestUnlinkSticks(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	for _, m := range [][2]string{{"mangadex", "a"}, {"comix", "b"}, {"mangapill", "c"}} {
		w.bookmark(r, m[0], m[1], t0)
	}
	w.readWith("mangadex", "a", "10", t0, nil, al("7"))
	w.readWith("comix", "b", "10", t0, nil, al("7"))
	wk := w.workOf("mangadex", "a")
	if err := w.st.UnlinkShared(w.ctx, wk, "comix", "b"); err != nil {
		t.Fatal(err)
	}
	if err := w.st.UnlinkShared(w.ctx, wk, "comix", "b"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unlinking a non-member: %v, want ErrNotFound", err)
	}
	// The same ids arrive again, and a third Series brings the id anew:
	// the unlinked Series stays out, the third joins.
	w.readWith("comix", "b", "11", t0.Add(time.Hour), nil, al("7"))
	w.readWith("mangapill", "c", "10", t0, nil, al("7"))
	w.readWith("comix", "b", "12", t0.Add(time.Hour), nil, al("7"), mu("3qzxncc"))
	w.readWith("mangadex", "a", "10", t0, nil, al("7"), mu("3qzxncc"))
	if got := w.workOf("comix", "b"); got == wk {
		t.Fatalf("the unlinked Series is back in Work %d", wk)
	}
	if got := w.workOf("mangapill", "c"); got != wk {
		t.Fatalf("a new Series with the id is in Work %d, want %d", got, wk)
	}
}

func TestBadExternalIDRefused(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	w.bookmark(r, "mangadex", "a", t0)
	for _, id := range []store.ExternalID{
		{Kind: "xx", Value: "1", Source: store.IDFromReader},
		{Kind: "al", Value: "", Source: store.IDFromReader},
		{Kind: "al", Value: "1 OR 1=1", Source: store.IDFromReader},
		{Kind: "al", Value: "1", Source: "guess"},
	} {
		_, err := w.st.AddSeriesIDs(w.ctx, []store.SeriesIDs{{Site: "mangadex", SeriesID: "a", ReaderID: r,
			IDs: []store.ExternalID{{Kind: "al", Value: "9", Source: store.IDFromReader}, id}}})
		var ie *store.IDError
		if !errors.As(err, &ie) || ie.Reason == "" {
			t.Fatalf("%+v: %v, want an IDError with a reason", id, err)
		}
	}
	if n := w.count(`SELECT count(*) FROM series_ids`); n != 0 {
		t.Fatalf("%d ids stored from refused calls, want 0", n)
	}
	// A Site's malformed id is left out; the read is recorded.
	w.readWith("mangadex", "a", "3", t0, nil, store.ExternalID{Kind: "al", Value: "bad value"}, al("42"))
	if n := w.count(`SELECT count(*) FROM series_ids`); n != 1 {
		t.Fatalf("%d ids stored from the read, want the one good id", n)
	}
}
