package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// Unlinks per Reader (security review round 5, W5-3; docs/adr/0021,
// "Unlinks per Reader"), the review's PoC run as an attack, in the world
// of the offsets' PoC: Ann follows one story on MangaDex and Comix, one
// shared Work by a Site's own id. Bob bookmarks only the Comix Series and
// sends DELETE for the MangaDex member. Before the fix the unlink held
// for everyone, for good: Ann's cards lost their Work, a new shared id
// never linked them again, and each chapter was told on both Sites. Now
// Bob's unlink changes nothing in Ann's library, numbers or notices.
func TestSec5BobsUnlinkLeavesAnnsWork(t *testing.T) {
	t.Parallel()
	w, id := newOffsetWorld(t)
	member := fmt.Sprintf("/api/works/%d/members/mangadex/%s", id, offMD)
	code, body := w.do(w.bob, "DELETE", member, "")
	if code != http.StatusOK || strings.Contains(string(body), `"mangadex"`) {
		t.Fatalf("Bob's unlink: %d %s, want 200 with his Work lacking the member", code, body)
	}
	if code, _ := w.do(w.bob, "DELETE", member, ""); code != http.StatusNotFound {
		t.Fatalf("Bob's second unlink: %d, want 404", code)
	}
	if n := w.count("work_members"); n != 2 {
		t.Fatalf("%d shared members after Bob's unlink, want 2", n)
	}
	if n := w.count("work_unlinks"); n != 0 {
		t.Fatalf("%d shared unlinks after one Reader's, want 0", n)
	}
	// Ann's chapters: told once in her Work, from the member that showed
	// each first, whichever Site.
	w.chapter("comix", offComix, "52")
	w.chapter("mangadex", offMD, "51")
	w.chapter("mangadex", offMD, "52")
	w.chapter("mangadex", offMD, "53")
	w.chapter("comix", offComix, "53")
	if got, want := w.owed(w.annID), []string{"comix:51", "comix:52", "mangadex:53"}; !slices.Equal(got, want) {
		t.Fatalf("Ann owed %v, want %v: told once, as before Bob's unlink", got, want)
	}
	wk, _ := w.work(w.ann, id)
	if len(wk.Members) != 2 || wk.Latest == nil || wk.Latest.Number != "53" || wk.Progress == nil || wk.Progress.Number != "50" || !wk.New {
		t.Fatalf("Ann's Work %+v, want both members, Latest 53, Progress 50, new", wk)
	}
	var list struct{ Bookmarks []client.Bookmark }
	if code, body := w.do(w.ann, "GET", "/api/bookmarks", ""); code != http.StatusOK || json.Unmarshal(body, &list) != nil {
		t.Fatalf("Ann's bookmarks: %d %s", code, body)
	}
	for _, b := range list.Bookmarks {
		if b.WorkID == nil || *b.WorkID != id || !b.New {
			t.Fatalf("Ann's card %+v, want new in Work %d", b, id)
		}
	}
	// Bob's view: his Comix Series is no Work's (one member left for him).
	if code, body := w.do(w.bob, "GET", "/api/bookmarks", ""); code != http.StatusOK || json.Unmarshal(body, &list) != nil ||
		len(list.Bookmarks) != 1 || list.Bookmarks[0].WorkID != nil {
		t.Fatalf("Bob's bookmarks: %d %s, want his Comix Series in no Work", code, body)
	}
	// A new shared id still links for Ann (it meets no shared unlink).
	ids := []store.ExternalID{{Kind: "al", Value: "880003", Source: store.IDFromSite}}
	w.chapter("mangadex", offMD, "54", ids...)
	w.chapter("comix", offComix, "54", ids...)
	if wk, _ := w.work(w.ann, id); len(wk.Members) != 2 {
		t.Fatalf("Ann's Work after a new shared id: %+v", wk)
	}
}

// The shared unlink: the Owner's DELETE on the admin route, for every
// Reader; a Reader cannot use that route; a second Reader's unlink of the
// same member makes it too.
func TestSharedUnlinkOwnerOrTwoReaders(t *testing.T) {
	t.Parallel()
	w, id := newOffsetWorld(t)
	member := fmt.Sprintf("/api/works/%d/members/mangadex/%s", id, offMD)
	admin := "/api/admin" + strings.TrimPrefix(member, "/api")
	owner := w.token(ownerID)
	if code, _ := w.do(w.bob, "DELETE", admin, ""); code != http.StatusForbidden {
		t.Fatalf("Bob on the admin route: %d, want 403", code)
	}
	for _, p := range []string{fmt.Sprintf("/api/admin/works/%d/members/mangapill/3", id), "/api/admin/works/999999/members/mangadex/" + offMD,
		fmt.Sprintf("/api/admin/works/%d/members/nosuchsite/3", id), "/api/admin/works/abc/members/mangadex/" + offMD} {
		if code, _ := w.do(owner, "DELETE", p, ""); code != http.StatusNotFound {
			t.Fatalf("the Owner's unlink on %s: %d, want 404", p, code)
		}
	}
	if n := w.count("work_members"); n != 2 {
		t.Fatalf("%d shared members after refused unlinks, want 2", n)
	}
	// Two Readers agree: Bob and Carol unlink the MangaDex member.
	carol := w.token("300000000000000053")
	w.bookmark(carol, "https://comix.to/title/"+offComix)
	for _, tok := range []string{w.bob, carol} {
		if code, body := w.do(tok, "DELETE", member, ""); code != http.StatusOK {
			t.Fatalf("unlink: %d %s", code, body)
		}
	}
	if n := w.count("work_members"); n != 0 {
		t.Fatalf("%d shared members after two Readers unlinked one of two, want 0 (dissolved)", n)
	}
	if n := w.count("work_unlinks"); n != 1 {
		t.Fatalf("%d shared unlinks, want 1", n)
	}
	// The Owner's, in a world of its own: for everyone at once.
	w, id = newOffsetWorld(t)
	code, body := w.do(w.token(ownerID), "DELETE", fmt.Sprintf("/api/admin/works/%d/members/comix/%s", id, offComix), "")
	if code != http.StatusOK || !strings.Contains(string(body), `"series_id":"`+offComix+`"`) {
		t.Fatalf("the Owner's unlink: %d %s", code, body)
	}
	if n := w.count("work_members"); n != 0 {
		t.Fatalf("%d shared members after the Owner's unlink of one of two, want 0 (dissolved)", n)
	}
	if n := w.count("work_unlinks"); n != 1 {
		t.Fatalf("%d shared unlinks after the Owner's, want 1", n)
	}
}
