package trackersync_test

import (
	"testing"

	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist"
)

// A pull maps a list entry through the Work as the Reader sees it
// (docs/adr/0021, "Unlinks per Reader"; docs/adr/0027, "The Reader's own
// evidence"). The Work of mangadex/a (AniList 7001) and comix/b (no
// AniList id) stands by a Site's mal id. Ann unlinked mangadex/a: her
// pull leaves her comix/b alone, while Bob's, with the same list, moves
// his. Ann's own hand link of comix/c with mangadex/a counts for her:
// her pull moves comix/c.
func TestPullFollowsTheReadersView(t *testing.T) {
	w := newWorld(t)
	svc := w.service("one")
	ann, bob := w.reader("ann"), w.reader("bob")
	w.series("mangadex", "a", "100", "7001")
	w.series("comix", "b", "100", "")
	w.series("comix", "c", "100", "")
	mal := []store.ExternalID{{Kind: "mal", Value: "42", Source: store.IDFromSite}}
	if _, err := w.st.AddSeriesIDs(w.ctx, []store.SeriesIDs{{Site: "mangadex", SeriesID: "a", IDs: mal},
		{Site: "comix", SeriesID: "b", IDs: mal}}); err != nil {
		t.Fatal(err)
	}
	work, err := w.st.WorkOf(w.ctx, "comix", "b")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []int64{ann, bob} {
		w.bookmark(r, "mangadex", "a", "10")
		w.bookmark(r, "comix", "b", "10")
	}
	if _, err := w.st.UnlinkMember(w.ctx, ann, work, "mangadex", "a"); err != nil {
		t.Fatal(err)
	}
	w.al.AddUser("ann", entry("7001", 60, trackers.StatusCurrent))
	w.al.AddUser("bob", entry("7001", 60, trackers.StatusCurrent))
	w.setUp(svc, ann, "ann", "")
	w.setUp(svc, bob, "bob", "")
	w.pull(svc)
	if n, _ := w.progress(ann, "comix", "b"); n != "10" {
		t.Fatalf("Ann's comix/b pulled to %s through a member she unlinked, want 10", n)
	}
	if n, _ := w.progress(bob, "comix", "b"); n != "60" {
		t.Fatalf("the control: Bob's comix/b at %s after his pull, want 60", n)
	}

	// Ann's own hand link counts for her pull.
	w.bookmark(ann, "comix", "c", "10")
	if err := w.st.RemoveBookmark(w.ctx, ann, "comix", "b"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.LinkByHand(w.ctx, ann, store.SeriesRef{Site: "comix", SeriesID: "c"},
		store.SeriesRef{Site: "mangadex", SeriesID: "a"}); err != nil {
		t.Fatal(err)
	}
	w.al.SetEntry("ann", entry("7001", 70, trackers.StatusCurrent))
	if err := svc.PullNow(w.ctx, ann, anilist.Name); err != nil {
		t.Fatal(err)
	}
	w.pull(svc)
	if n, _ := w.progress(ann, "comix", "c"); n != "70" {
		t.Fatalf("Ann's comix/c at %s after her pull, want 70 through her own hand link", n)
	}
}
