package store_test

import (
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// owedList lists a Reader's notices as site:number@work (work 0 for a
// Series' own notice), in number and Site order.
func (w *noticeWorld) owedList(reader int64) []string {
	w.t.Helper()
	rows, err := w.st.Pool().Query(w.ctx, `SELECT site || ':' || number::text || '@' || coalesce(work_id, 0)::text
		FROM reader_notices WHERE reader_id = $1 ORDER BY number, site`, reader)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			w.t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		w.t.Fatal(err)
	}
	return out
}

// threeMemberWork: Ann and Bob bookmark mangadex/a, comix/b and
// mangapill/c, one Work by a Site's id, all at 20 and read to 20.
func threeMemberWork(t *testing.T) (w *noticeWorld, ann, bob, wk int64) {
	t.Helper()
	w = newNoticeWorld(t)
	ann, bob = w.reader("ann"), w.reader("bob")
	for _, r := range []int64{ann, bob} {
		for _, m := range [][2]string{{"mangadex", "a"}, {"comix", "b"}, {"mangapill", "c"}} {
			w.bookmark(r, m[0], m[1], t0.Add(-time.Hour))
		}
	}
	for _, m := range [][2]string{{"mangadex", "a"}, {"comix", "b"}, {"mangapill", "c"}} {
		w.readWith(m[0], m[1], "20", t0, nil, al("1"))
		for _, r := range []int64{ann, bob} {
			w.progress(r, m[0], m[1], "20")
		}
	}
	wk = w.workOf("mangadex", "a")
	if wk == 0 || w.workOf("comix", "b") != wk || w.workOf("mangapill", "c") != wk {
		t.Fatal("the three Series did not link")
	}
	return w, ann, bob, wk
}

// Unlinks per Reader (W5-3): Bob's unlink takes b out of the Work in his
// library only. Ann's Work, numbers and notices stay as they were (b's 21
// is hers in the Work, told once); Bob holds b as a lone Series (owed its
// own 21, and a's 21 in the Work of a and c). A second Reader's unlink of
// the same member makes the shared unlink.
func TestReaderUnlinkIsThatReadersOnly(t *testing.T) {
	t.Parallel()
	w, ann, bob, wk := threeMemberWork(t)
	if how, err := w.st.UnlinkMember(w.ctx, bob, wk, "comix", "b"); err != nil || how != store.UnlinkedMine {
		t.Fatalf("Bob's unlink: %v %v, want his own", how, err)
	}
	if _, err := w.st.UnlinkMember(w.ctx, bob, wk, "comix", "b"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Bob's second unlink: %v, want ErrNotFound (no member for him)", err)
	}
	if got := w.workOf("comix", "b"); got != wk {
		t.Fatalf("b is in Work %d for everyone, want still %d", got, wk)
	}
	if got := w.bookmarks(ann)["comix"].WorkID; got == nil || *got != wk {
		t.Fatalf("Ann's card of b in Work %v, want %d", got, wk)
	}
	if got := w.bookmarks(bob)["comix"].WorkID; got != nil {
		t.Fatalf("Bob's card of b in Work %d, want none", *got)
	}
	if got := w.bookmarks(bob)["mangadex"].WorkID; got == nil || *got != wk {
		t.Fatalf("Bob's card of a in Work %v, want %d (a and c stay one story for him)", got, wk)
	}
	if aw, err := w.st.ReaderWork(w.ctx, ann, wk, t0); err != nil || len(aw.Members) != 3 {
		t.Fatalf("Ann's Work %+v (%v), want its three members", aw, err)
	}
	if bw, err := w.st.ReaderWork(w.ctx, bob, wk, t0); err != nil || len(bw.Members) != 2 {
		t.Fatalf("Bob's Work %+v (%v), want a and c", bw, err)
	}

	at := t0.Add(time.Hour)
	w.readWith("comix", "b", "21", at, nil)
	w.readWith("mangadex", "a", "21", at.Add(time.Minute), nil)
	if got, want := w.owedList(ann), []string{"comix:21@" + strconv.FormatInt(wk, 10)}; !slices.Equal(got, want) {
		t.Fatalf("Ann owed %v, want %v: Bob's unlink changed her notices", got, want)
	}
	if got, want := w.owedList(bob), []string{"comix:21@0", "mangadex:21@" + strconv.FormatInt(wk, 10)}; !slices.Equal(got, want) {
		t.Fatalf("Bob owed %v, want %v: b his lone Series, a's 21 in his Work", got, want)
	}

	// Carol unlinks b too: two Readers agree, it leaves the Work for all.
	carol := w.reader("carol")
	w.bookmark(carol, "comix", "b", t0.Add(-time.Hour))
	if how, err := w.st.UnlinkMember(w.ctx, carol, wk, "comix", "b"); err != nil || how != store.UnlinkedShared {
		t.Fatalf("Carol's unlink: %v %v, want the shared one", how, err)
	}
	if got := w.workOf("comix", "b"); got != 0 {
		t.Fatalf("b still in Work %d after two Readers unlinked it", got)
	}
	if n := w.count(`SELECT count(*) FROM work_unlinks WHERE work_id = $1`, wk); n != 1 {
		t.Fatalf("%d shared unlinks, want 1", n)
	}
	if n := w.count(`SELECT count(*) FROM work_reader_unlinks`); n != 0 {
		t.Fatalf("%d Readers' own unlinks left after the shared one, want 0", n)
	}
}

// A Work that a Reader's unlink leaves with one member for them is no
// Work in their library (as dissolution is for everyone); their hand link
// of the two undoes it, and their own named id never does.
func TestReaderUnlinkThinsOnlyTheirWork(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	ann, bob := w.reader("ann"), w.reader("bob")
	wk := w.twoMemberWork(ann, "20", "20")
	w.bookmark(bob, "mangadex", "a", t0.Add(-time.Hour))
	w.bookmark(bob, "comix", "b", t0.Add(-time.Hour))
	if _, err := w.st.UnlinkMember(w.ctx, bob, wk, "comix", "b"); err != nil {
		t.Fatal(err)
	}
	for site, b := range w.bookmarks(bob) {
		if b.WorkID != nil {
			t.Fatalf("Bob's card on %s in Work %d, want none (one member left for him)", site, *b.WorkID)
		}
	}
	if ws, err := w.st.ReaderWorks(w.ctx, bob, t0); err != nil || len(ws) != 0 {
		t.Fatalf("Bob's Works %+v (%v), want none", ws, err)
	}
	if ws, err := w.st.ReaderWorks(w.ctx, ann, t0); err != nil || len(ws) != 1 || len(ws[0].Members) != 2 {
		t.Fatalf("Ann's Works %+v (%v), want hers of two members", ws, err)
	}
	if _, err := w.st.UnlinkMember(w.ctx, bob, wk, "mangadex", "a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Bob unlinks a from a Work that is none for him: %v, want ErrNotFound", err)
	}
	// A chapter on a: Ann is owed it in the Work, Bob as a lone Series.
	w.readWith("mangadex", "a", "21", t0.Add(time.Hour), nil)
	if got, want := w.owedList(ann), []string{"mangadex:21@" + strconv.FormatInt(wk, 10)}; !slices.Equal(got, want) {
		t.Fatalf("Ann owed %v, want %v", got, want)
	}
	if got, want := w.owedList(bob), []string{"mangadex:21@0"}; !slices.Equal(got, want) {
		t.Fatalf("Bob owed %v, want %v", got, want)
	}
	// Bob's own id on both does not undo his unlink.
	for _, s := range [][2]string{{"mangadex", "a"}, {"comix", "b"}} {
		if err := w.named(bob, s[0], s[1], store.ExternalID{Kind: "mal", Value: "5"}); err != nil {
			t.Fatal(err)
		}
	}
	if b := w.bookmarks(bob)["comix"]; b.WorkID != nil {
		t.Fatalf("Bob's id put b back in Work %d", *b.WorkID)
	}
	// His hand link does: both are in the Work for him again.
	got, err := w.st.LinkByHand(w.ctx, bob, store.SeriesRef{Site: "mangadex", SeriesID: "a"}, store.SeriesRef{Site: "comix", SeriesID: "b"})
	if err != nil || got != wk {
		t.Fatalf("Bob's hand link: %d %v, want Work %d", got, err, wk)
	}
	for site, b := range w.bookmarks(bob) {
		if b.WorkID == nil || *b.WorkID != wk {
			t.Fatalf("Bob's card on %s in Work %v after his hand link, want %d", site, b.WorkID, wk)
		}
	}
	if n := w.count(`SELECT count(*) FROM work_reader_unlinks`) + w.count(`SELECT count(*) FROM work_hand_links`); n != 0 {
		t.Fatalf("%d unlinks or hand links left, want none", n)
	}
}

// The Owner's shared unlink: the member leaves the Work for everyone.
func TestOwnerUnlinkShared(t *testing.T) {
	t.Parallel()
	w, ann, bob, wk := threeMemberWork(t)
	if _, err := w.st.UnlinkMember(w.ctx, bob, wk, "comix", "b"); err != nil {
		t.Fatal(err)
	}
	if err := w.st.UnlinkShared(w.ctx, wk, "comix", "b"); err != nil {
		t.Fatal(err)
	}
	for _, r := range []int64{ann, bob} {
		if got := w.bookmarks(r)["comix"].WorkID; got != nil {
			t.Fatalf("Reader %d's card of b in Work %d after the Owner's unlink", r, *got)
		}
	}
	if err := w.st.UnlinkShared(w.ctx, wk, "comix", "b"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unlinking a non-member: %v, want ErrNotFound", err)
	}
	if err := w.st.UnlinkShared(w.ctx, wk+100, "mangadex", "a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unlinking from another Work: %v, want ErrNotFound", err)
	}
}
