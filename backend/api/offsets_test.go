package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// Offsets per Reader (security review round 5, W5-2; docs/adr/0021,
// "Offsets per Reader"), the review's PoC run as an attack. Ann follows one
// story on MangaDex and Comix, which a Site's own id made one shared Work;
// both at Latest 50, read to 50. Bob bookmarks only the Comix Series and
// sets +100000 on the MangaDex member, which he does not even bookmark.
// Before the fix the offset was one value for everyone: Ann's Work read
// Latest and Progress 100050, not new, and her chapters 52 and 53 owed her
// nothing. Now Bob's offset moves Bob's numbers only.

const (
	offMD    = "00000000-0000-4000-8000-00000000000d"
	offComix = "ddddd-d"
)

func newOffsetWorld(t *testing.T) (*whoseWorld, int64) {
	t.Helper()
	w := &whoseWorld{importEnv: newImportEnv(t)}
	w.now = time.Now().UTC() // chapters seen after the bookmarks (the database's clock) owe notices
	w.ann, w.bob = w.token("300000000000000051"), w.token("300000000000000052")
	w.annID, w.bobID = w.readerID("300000000000000051"), w.readerID("300000000000000052")
	w.bookmark(w.ann, "https://mangadex.org/title/"+offMD)
	w.bookmark(w.ann, "https://comix.to/title/"+offComix)
	w.bookmark(w.bob, "https://comix.to/title/"+offComix)
	site := []store.ExternalID{{Kind: "mal", Value: "880002", Source: store.IDFromSite}}
	w.chapter("mangadex", offMD, "50", site...)
	w.chapter("comix", offComix, "50", site...)
	for _, s := range []string{"mangadex/" + offMD, "comix/" + offComix} {
		if code, body := w.do(w.ann, "PUT", "/api/bookmarks/"+s+"/progress", `{"number":"50"}`); code != http.StatusOK {
			t.Fatalf("Ann's Progress on %s: %d %s", s, code, body)
		}
	}
	var works client.WorksResponse
	if code, body := w.do(w.ann, "GET", "/api/works", ""); code != http.StatusOK || json.Unmarshal(body, &works) != nil || len(works.Works) != 1 {
		t.Fatalf("Ann's Works: %d %s, want the one the Site's id made", code, body)
	}
	// The control: Comix shows 51 and Ann is owed it.
	w.chapter("comix", offComix, "51")
	if got := w.owed(w.annID); !slices.Equal(got, []string{"comix:51"}) {
		t.Fatalf("control: Ann owed %v, want comix:51", got)
	}
	return w, works.Works[0].ID
}

// work reads a Reader's Work: its Latest, Progress, New and the offset of
// each member by Site.
func (w *whoseWorld) work(tok string, id int64) (client.Work, map[string]string) {
	w.t.Helper()
	var wk client.Work
	code, body := w.do(tok, "GET", fmt.Sprintf("/api/works/%d", id), "")
	if code != http.StatusOK || json.Unmarshal(body, &wk) != nil {
		w.t.Fatalf("GET Work %d: %d %s", id, code, body)
	}
	offs := map[string]string{}
	for _, m := range wk.Members {
		offs[m.Site] = m.Offset
	}
	return wk, offs
}

func TestSec5BobsOffsetMovesOnlyBobsNumbers(t *testing.T) {
	t.Parallel()
	w, id := newOffsetWorld(t)
	member := fmt.Sprintf("/api/works/%d/members/mangadex/%s", id, offMD)
	code, body := w.do(w.bob, "PUT", member, `{"offset":"100000"}`)
	if code != http.StatusOK || !strings.Contains(string(body), `"number":"100050"`) {
		t.Fatalf("Bob's offset: %d %s, want 200 with his Latest 100050", code, body)
	}
	w.chapter("comix", offComix, "52")
	w.chapter("comix", offComix, "53")
	if got, want := w.owed(w.annID), []string{"comix:51", "comix:52", "comix:53"}; !slices.Equal(got, want) {
		t.Fatalf("Ann owed %v, want %v: Bob's offset silenced her chapters", got, want)
	}
	wk, offs := w.work(w.ann, id)
	if wk.Latest == nil || wk.Latest.Number != "53" || wk.Progress == nil || wk.Progress.Number != "50" || !wk.New ||
		offs["mangadex"] != "0" || offs["comix"] != "0" {
		t.Fatalf("Ann's Work %+v offsets %v, want Latest 53, Progress 50, new, no offset", wk, offs)
	}
	var list struct{ Bookmarks []client.Bookmark }
	if code, body := w.do(w.ann, "GET", "/api/bookmarks", ""); code != http.StatusOK || json.Unmarshal(body, &list) != nil {
		t.Fatalf("Ann's bookmarks: %d %s", code, body)
	}
	for _, b := range list.Bookmarks {
		if !b.New || b.WorkID == nil || *b.WorkID != id {
			t.Fatalf("Ann's card %+v, want new in Work %d", b, id)
		}
	}
	sw, err := w.st.ReaderWork(context.Background(), w.annID, id, w.now)
	if err != nil || sw.ContinueNumber != "51" {
		t.Fatalf("Ann's Continue %q (%v), want 51", sw.ContinueNumber, err)
	}
	page, err := w.st.LibraryPage(context.Background(), w.annID, store.LibraryQuery{Page: 1, PerPage: 50})
	if err != nil || len(page.Cards) != 1 || len(page.Cards[0].Items) != 2 || !page.Cards[0].Items[0].New || !page.Cards[0].Items[1].New {
		t.Fatalf("Ann's library page %+v (%v), want one card of two bookmarks, new", page.Cards, err)
	}
	// Bob's own view has his offset.
	bw, offs := w.work(w.bob, id)
	if bw.Latest == nil || bw.Latest.Number != "100050" || offs["mangadex"] != "100000" {
		t.Fatalf("Bob's Work %+v offsets %v, want Latest 100050 by his +100000", bw, offs)
	}
}

// The shared offset: the Owner sets it for everyone and clears the
// Readers' own; two Readers who set the same value make it shared; a
// Reader cannot use the Owner's route, and a hostile value is refused with
// a sentence on both routes, nothing saved.
func TestSharedOffsetOwnerOrTwoReaders(t *testing.T) {
	t.Parallel()
	w, id := newOffsetWorld(t)
	carol := w.token("300000000000000053")
	w.bookmark(carol, "https://comix.to/title/"+offComix)
	member := fmt.Sprintf("/api/works/%d/members/mangadex/%s", id, offMD)
	admin := "/api/admin" + strings.TrimPrefix(member, "/api")
	owner := w.token(ownerID)

	// One Reader's value is theirs; a second Reader's equal value makes it
	// shared, for Ann too, who set none.
	if code, body := w.do(w.bob, "PUT", member, `{"offset":"-5"}`); code != http.StatusOK {
		t.Fatalf("Bob's offset: %d %s", code, body)
	}
	if _, offs := w.work(w.ann, id); offs["mangadex"] != "0" {
		t.Fatalf("Ann sees offset %q after Bob's alone, want 0", offs["mangadex"])
	}
	if code, body := w.do(carol, "PUT", member, `{"offset":"-5"}`); code != http.StatusOK {
		t.Fatalf("Carol's offset: %d %s", code, body)
	}
	if _, offs := w.work(w.ann, id); offs["mangadex"] != "-5" {
		t.Fatalf("Ann sees offset %q after Bob and Carol agreed on -5, want the shared -5", offs["mangadex"])
	}
	if n := w.count("work_reader_offsets"); n != 0 {
		t.Fatalf("%d Readers' own offsets left after they agreed, want 0", n)
	}

	// Hostile values: 400 with a sentence, on both routes, nothing saved.
	for _, bad := range []string{`{"offset":"1e9"}`, `{"offset":"NaN"}`, `{"offset":"Infinity"}`, `{"offset":"ten"}`,
		`{"offset":"100001"}`, `{"offset":"-100000.00001"}`, `{"offset":1}`, `{}`, `{"offset":"` + strings.Repeat("9", 500) + `"}`} {
		for _, c := range []struct{ tok, path string }{{w.ann, member}, {owner, admin}} {
			code, body := w.do(c.tok, "PUT", c.path, bad)
			if code != http.StatusBadRequest || !strings.Contains(string(body), "offset") {
				t.Fatalf("PUT %s %.40s: %d %s, want 400 naming the offset", c.path, bad, code, body)
			}
		}
	}
	if _, offs := w.work(w.ann, id); offs["mangadex"] != "-5" || w.count("work_reader_offsets") != 0 {
		t.Fatalf("after the hostile values Ann sees %q and %d own offsets, want -5 and none", offs["mangadex"], w.count("work_reader_offsets"))
	}

	// A Reader cannot use the Owner's route.
	if code, _ := w.do(w.bob, "PUT", admin, `{"offset":"100000"}`); code != http.StatusForbidden {
		t.Fatalf("Bob on the admin route: %d, want 403", code)
	}
	// The Owner's value holds for everyone, and the Readers' own go.
	if code, body := w.do(w.ann, "PUT", member, `{"offset":"7"}`); code != http.StatusOK {
		t.Fatalf("Ann's offset: %d %s", code, body)
	}
	if code, body := w.do(owner, "PUT", admin, `{"offset":"2"}`); code != http.StatusOK || !strings.Contains(string(body), `"offset":"2"`) {
		t.Fatalf("the Owner's offset: %d %s", code, body)
	}
	for name, tok := range map[string]string{"Ann": w.ann, "Bob": w.bob, "Carol": carol} {
		if wk, offs := w.work(tok, id); offs["mangadex"] != "2" || wk.Latest == nil || wk.Latest.Number != "52" {
			t.Fatalf("%s's Work %+v offsets %v after the Owner's +2, want 2 and Latest 52", name, wk, offs)
		}
	}
	if n := w.count("work_reader_offsets"); n != 0 {
		t.Fatalf("%d Readers' own offsets left after the Owner's, want 0", n)
	}
	for _, c := range []struct{ path string }{{fmt.Sprintf("/api/admin/works/%d/members/mangapill/3", id)}, {"/api/admin/works/999999/members/mangadex/" + offMD}} {
		if code, _ := w.do(owner, "PUT", c.path, `{"offset":"1"}`); code != http.StatusNotFound {
			t.Fatalf("the Owner's offset on %s: %d, want 404", c.path, code)
		}
	}
}
