package trackersync_test

import (
	"strconv"
	"testing"

	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist"
	"mangabookmark/backend/trackersync"
)

// readerID gives a Series an AniList id as one Reader's word (named by
// hand: source reader, reader_id that Reader, migration 0016), written
// as the store keeps such an id.
func (w *world) readerID(reader int64, site, id, al string) {
	w.t.Helper()
	if _, err := w.st.Pool().Exec(w.ctx, `INSERT INTO series_ids (site, series_id, kind, value, source, reader_id)
		VALUES ($1, $2, 'al', $3, 'reader', $4)`, site, id, al, reader); err != nil {
		w.t.Fatal(err)
	}
}

// TestAnotherReadersIDDoesNotSteerMyPull is the review's T5-1 as an
// attack: Bob names al=30013 on a Series Ann reads at 150; her list has
// 30013 at 1100. Her own pull leaves her Progress at 150. The control:
// when Ann names the same id herself, her pull moves it (the Reader's own
// evidence).
func TestAnotherReadersIDDoesNotSteerMyPull(t *testing.T) {
	for _, whose := range []string{"bob", "ann"} {
		t.Run(whose, func(t *testing.T) {
			w := newWorld(t)
			svc := w.service("one")
			ann, bob := w.reader("ann"), w.reader("bob")
			w.series("mangapill", "15", "150", "")
			w.bookmark(ann, "mangapill", "15", "150")
			w.bookmark(bob, "mangapill", "15", "")
			w.al.AddUser("ann", entry("30013", 1100, trackers.StatusCurrent), entry("555", 10, trackers.StatusCurrent))
			w.setUp(svc, ann, "ann", "")
			namer := map[string]int64{"bob": bob, "ann": ann}[whose]
			w.readerID(namer, "mangapill", "15", "30013")
			if err := svc.PullNow(w.ctx, ann, anilist.Name); err != nil {
				t.Fatal(err)
			}
			w.pull(svc)
			got, _ := w.progress(ann, "mangapill", "15")
			want := map[string]string{"bob": "150", "ann": "1100"}[whose]
			if got != want {
				t.Fatalf("id named by %s: Ann's Progress %s after her pull, want %s", whose, got, want)
			}
		})
	}
}

// TestAnotherReadersIDsWriteNothingToMyAccount is the review's T5-2 as an
// attack: Bob names al ids on 21 Series Ann reads (ten of those media are
// even on her AniList list). Ann reads all 21 to 155 with push on: the
// stand-in sees no SaveMediaListEntry. The control in the same pass: a
// Series whose id is its Site's word, on her list, is written once.
func TestAnotherReadersIDsWriteNothingToMyAccount(t *testing.T) {
	w := newWorld(t)
	svc := w.service("one")
	ann, bob := w.reader("ann"), w.reader("bob")
	var list []trackers.Entry
	for i := range 21 {
		id := strconv.Itoa(16 + i)
		w.series("mangapill", id, "160", "")
		w.bookmark(ann, "mangapill", id, "150")
		w.bookmark(bob, "mangapill", id, "")
		media := strconv.Itoa(500001 + i)
		if i == 0 {
			media = "424242"
		}
		w.readerID(bob, "mangapill", id, media)
		if i%2 == 0 && i < 20 {
			list = append(list, entry(media, 3, trackers.StatusPlanning))
		}
	}
	w.series("mangadex", "own", "160", "9001")
	w.bookmark(ann, "mangadex", "own", "150")
	list = append(list, entry("9001", 150, trackers.StatusCurrent))
	w.al.AddUser("ann", list...)
	w.setUp(svc, ann, "ann", "tok-ann")
	w.pull(svc)
	for i := range 21 {
		w.read(ann, "mangapill", strconv.Itoa(16+i), "155")
	}
	w.read(ann, "mangadex", "own", "155")
	w.push(svc)
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	wrote := w.push(svc)
	if saves := w.al.Requests(trackers.KindSave); saves != 1 || wrote != 1 {
		t.Fatalf("%d writes into Ann's account (%d pushed), want 1: her own Series only", saves, wrote)
	}
	if e, _ := w.al.Entry("ann", "9001"); e.Progress != 155 {
		t.Fatalf("the control: 9001 = %+v, want 155", e)
	}
	for _, media := range []string{"424242", "500003", "500021"} {
		if e, ok := w.al.Entry("ann", media); ok && e.Progress != 3 {
			t.Fatalf("Bob's media %s in Ann's account: %+v", media, e)
		} else if !ok && media == "500003" {
			t.Fatalf("media %s left Ann's list", media)
		}
	}
	if _, ok := w.al.Entry("ann", "500021"); ok {
		t.Fatal("Bob's media 500021 joined Ann's list")
	}
}

// TestTwoIDsOfOneKindAreSkipped: a Series whose ids (its Site's and Ann's
// own) name two AniList media is neither pulled nor pushed, and GET
// /api/me/trackers lists it as skipped with both media.
func TestTwoIDsOfOneKindAreSkipped(t *testing.T) {
	w := newWorld(t)
	svc := w.service("one")
	ann := w.reader("ann")
	w.series("mangadex", "two", "80", "7001")
	w.bookmark(ann, "mangadex", "two", "20")
	w.readerID(ann, "mangadex", "two", "7002")
	w.al.AddUser("ann", entry("7001", 60, trackers.StatusCurrent), entry("7002", 70, trackers.StatusCurrent))
	w.setUp(svc, ann, "ann", "tok-ann")
	w.pull(svc)
	if n, _ := w.progress(ann, "mangadex", "two"); n != "20" {
		t.Fatalf("an ambiguous Series was pulled to %s", n)
	}
	w.read(ann, "mangadex", "two", "75")
	w.push(svc)
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	if got := w.push(svc); got != 0 || w.al.Requests(trackers.KindSave) != 0 {
		t.Fatalf("an ambiguous Series was pushed (%d)", got)
	}
	list, err := svc.List(w.ctx, ann)
	if err != nil {
		t.Fatal(err)
	}
	sk := list[0].Skipped
	if len(sk) != 1 || sk[0].Site != "mangadex" || sk[0].SeriesID != "two" || len(sk[0].MediaIDs) != 2 ||
		sk[0].MediaIDs[0] != "7001" || sk[0].MediaIDs[1] != "7002" {
		t.Fatalf("skipped = %+v, want mangadex/two with 7001 and 7002", sk)
	}
}

// TestMyNamedIDJoinsMyList: a media not on Ann's list is written there
// when Ann named it herself (her own evidence), not when only a Site's id
// names it.
func TestMyNamedIDJoinsMyList(t *testing.T) {
	w := newWorld(t)
	svc := w.service("one")
	ann := w.reader("ann")
	w.series("mangadex", "mine", "", "")
	w.series("mangadex", "site", "", "8002")
	w.bookmark(ann, "mangadex", "mine", "")
	w.bookmark(ann, "mangadex", "site", "")
	w.readerID(ann, "mangadex", "mine", "8001")
	w.al.AddUser("ann")
	w.setUp(svc, ann, "ann", "tok-ann")
	w.pull(svc)
	w.read(ann, "mangadex", "mine", "4")
	w.read(ann, "mangadex", "site", "4")
	w.push(svc)
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	if got := w.push(svc); got != 1 {
		t.Fatalf("pushed %d, want 1 (her named media)", got)
	}
	if e, ok := w.al.Entry("ann", "8001"); !ok || e.Progress != 4 || e.Status != trackers.StatusCurrent {
		t.Fatalf("her named media: %+v %v", e, ok)
	}
	if _, ok := w.al.Entry("ann", "8002"); ok {
		t.Fatal("a media only a Site named joined her list, unseen by her pull")
	}
}
