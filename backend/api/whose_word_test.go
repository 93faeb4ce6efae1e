package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/imports/tachibk"
	"mangabookmark/backend/imports/tachibk/tachibktest"
	"mangabookmark/backend/sites/mangadex"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// Whose word (security review round 5, W5-1 and W5-6; docs/adr/0021,
// "Whose word"): each test is one of the review's PoCs run as an attack.
// Ann follows only "Story 11" (mangapill/11, Latest 110, read to 110).
// Bob bookmarks Story 11 too and his own Story 12 (on WeebCentral, Latest
// 1100), and names one external id on both: by two PUTs, a JSON import, a
// .tachibk backup's tracking rows. Before the fix the id joined the two
// Series into one Work for everyone: Ann's card read "Story 12 · 988 new ·
// Continue: ch. 1101" and she was owed Bob's 1101 and none of her own 112
// and 113. Now Bob's word holds in Bob's library only.

const (
	story11 = "https://mangapill.com/manga/11/story-11"
	story12 = "https://weebcentral.com/series/01J76XY7E9FNDZ1DBBM6PBJPFK"
	wc12    = "01J76XY7E9FNDZ1DBBM6PBJPFK"
)

type whoseWorld struct {
	*importEnv
	ann, bob     string
	annID, bobID int64
}

func newWhoseWorld(t *testing.T) *whoseWorld {
	t.Helper()
	w := &whoseWorld{importEnv: newImportEnv(t)}
	w.now = time.Now().UTC() // chapters seen after the bookmarks (the database's clock) owe notices
	w.ann, w.bob = w.token("300000000000000041"), w.token("300000000000000042")
	w.annID, w.bobID = w.readerID("300000000000000041"), w.readerID("300000000000000042")
	w.bookmark(w.ann, story11)
	w.bookmark(w.bob, story11)
	w.bookmark(w.bob, story12)
	w.chapter("mangapill", "11", "110")
	w.chapter("weebcentral", wc12, "1100")
	if code, body := w.do(w.ann, "PUT", "/api/bookmarks/mangapill/11/progress", `{"number":"110"}`); code != http.StatusOK {
		t.Fatalf("Ann's Progress: %d %s", code, body)
	}
	// The control: with no Work, Ann is owed her own chapter 111.
	w.chapter("mangapill", "11", "111")
	if got := w.owed(w.annID); !slices.Equal(got, []string{"mangapill:111"}) {
		t.Fatalf("control: Ann owed %v, want mangapill:111", got)
	}
	return w
}

func (w *whoseWorld) readerID(discord string) int64 {
	w.t.Helper()
	var id int64
	if err := w.st.Pool().QueryRow(context.Background(), `SELECT id FROM readers WHERE discord_id = $1`, discord).Scan(&id); err != nil {
		w.t.Fatal(err)
	}
	return id
}

func (w *whoseWorld) bookmark(tok, url string) {
	w.t.Helper()
	if code, body := w.do(tok, "POST", "/api/bookmarks", fmt.Sprintf(`{"url":%q}`, url)); code != http.StatusCreated && code != http.StatusOK {
		w.t.Fatalf("bookmark %s: %d %s", url, code, body)
	}
}

// chapter records a good read of the Series showing number, a minute on.
func (w *whoseWorld) chapter(site, id, number string, ids ...store.ExternalID) {
	w.t.Helper()
	w.now = w.now.Add(time.Minute)
	f := store.ReadFacts{Title: "Story " + id, Number: number, ChTitle: "Chapter " + number,
		ChURL: "https://" + site + ".example/" + id + "/" + number, IDs: ids}
	if _, err := w.st.RecordOK(context.Background(), site, id, f, w.now); err != nil {
		w.t.Fatal(err)
	}
}

// owed lists the Reader's notices as site:number, in number order.
func (w *whoseWorld) owed(reader int64) []string {
	w.t.Helper()
	rows, err := w.st.Pool().Query(context.Background(), `SELECT site || ':' || number::text FROM reader_notices
		WHERE reader_id = $1 ORDER BY number, site`, reader)
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

// annUntouched runs the rest of the PoC after Bob's link: Bob's Series
// shows 1101, Ann's 112 and 113. Ann is owed exactly her own chapters;
// her card is her own story's (no Work, Latest 113, new), her Works are
// none, and the Series page shows Bob's id as another Reader's, never his.
func (w *whoseWorld) annUntouched() {
	w.t.Helper()
	w.chapter("weebcentral", wc12, "1101")
	w.chapter("mangapill", "11", "112")
	w.chapter("mangapill", "11", "113")
	if got, want := w.owed(w.annID), []string{"mangapill:111", "mangapill:112", "mangapill:113"}; !slices.Equal(got, want) {
		w.t.Fatalf("Ann owed %v, want %v (her own chapters, none of Bob's)", got, want)
	}
	var works client.WorksResponse
	if code, body := w.do(w.ann, "GET", "/api/works", ""); code != http.StatusOK || json.Unmarshal(body, &works) != nil || len(works.Works) != 0 {
		w.t.Fatalf("Ann's Works: %d %s, want none", code, body)
	}
	var list struct{ Bookmarks []client.Bookmark }
	code, body := w.do(w.ann, "GET", "/api/bookmarks", "")
	if code != http.StatusOK || json.Unmarshal(body, &list) != nil {
		w.t.Fatalf("Ann's bookmarks: %d %s", code, body)
	}
	bms := list.Bookmarks
	if len(bms) != 1 || bms[0].WorkID != nil || bms[0].Latest == nil || bms[0].Latest.Number != "113" || !bms[0].New {
		w.t.Fatalf("Ann's card %+v, want Story 11 alone: Latest 113, new", bms)
	}
	var card client.SeriesCard
	code, body = w.do(w.ann, "GET", "/api/series/mangapill/11", "")
	if code != http.StatusOK || json.Unmarshal(body, &card) != nil || card.WorkID != nil {
		w.t.Fatalf("Ann's Series card: %d %s", code, body)
	}
	for _, id := range card.IDs {
		if id.Source != "another_reader" {
			w.t.Fatalf("Ann's Series card shows %+v: Bob's id must read another_reader", id)
		}
	}
	if strings.Contains(string(body), "300000000000000042") || strings.Contains(string(body), fmt.Sprintf(`"reader_id":%d`, w.bobID)) {
		w.t.Fatalf("Ann's Series card names Bob: %s", body)
	}
	if n := w.count("work_members"); n != 0 {
		w.t.Fatalf("%d shared members: a Reader's word linked for everyone", n)
	}
}

// bobLinked checks that Bob's word holds in Bob's own library: his two
// Series are one Work for him.
func (w *whoseWorld) bobLinked() {
	w.t.Helper()
	var works client.WorksResponse
	code, body := w.do(w.bob, "GET", "/api/works", "")
	if code != http.StatusOK || json.Unmarshal(body, &works) != nil || len(works.Works) != 1 || len(works.Works[0].Members) != 2 {
		w.t.Fatalf("Bob's Works: %d %s, want his two Series as one Work", code, body)
	}
}

// W5-1, by hand: Bob's two PUTs (and a second PUT of the same kind, which
// replaces his own id) change nothing of Ann's.
func TestWhoseWordBobsPutsLeaveAnnAlone(t *testing.T) {
	t.Parallel()
	w := newWhoseWorld(t)
	for _, p := range []string{"/api/series/mangapill/11/ids", "/api/series/weebcentral/" + wc12 + "/ids"} {
		if code, body := w.do(w.bob, "PUT", p, `{"kind":"al","value":"990001"}`); code != http.StatusOK {
			t.Fatalf("Bob's PUT %s: %d %s", p, code, body)
		}
	}
	w.annUntouched()
	w.bobLinked()
	// A second PUT of the kind replaces Bob's own: one al of his on 11.
	if code, body := w.do(w.bob, "PUT", "/api/series/mangapill/11/ids", `{"kind":"al","value":"990002"}`); code != http.StatusOK ||
		!strings.Contains(string(body), `"value":"990002","source":"mine"`) || strings.Contains(string(body), "990001") {
		t.Fatalf("Bob's second PUT: %d %s, want his al replaced", code, body)
	}
	// A Work holds one Series per Site: Bob's third mangapill Series joins
	// his Work neither by hand nor by an id (409 with a sentence; nothing
	// is saved).
	w.bookmark(w.bob, "https://mangapill.com/manga/13/story-13")
	link := `{"a":{"site":"weebcentral","series_id":"` + wc12 + `"},"b":{"site":"mangapill","series_id":"13"}}`
	if code, body := w.do(w.bob, "POST", "/api/works/link", link); code != http.StatusConflict ||
		!strings.Contains(string(body), "already holds a Series on mangapill, and a Work holds one Series per Site") {
		t.Fatalf("Bob's hand link past one Series per Site: %d %s, want 409 with the reason", code, body)
	}
	if code, body := w.do(w.bob, "PUT", "/api/series/mangapill/13/ids", `{"kind":"al","value":"990002"}`); code != http.StatusConflict ||
		!strings.Contains(string(body), "nothing was linked") {
		t.Fatalf("Bob's id past one Series per Site: %d %s, want 409 with the reason", code, body)
	}
	if code, body := w.do(w.bob, "GET", "/api/series/mangapill/13", ""); code != http.StatusOK || strings.Contains(string(body), "990002") {
		t.Fatalf("the refused id was saved: %d %s", code, body)
	}
}

// W5-1 through a JSON import: the same link in one POST /api/imports.
func TestWhoseWordBobsJSONImportLeavesAnnAlone(t *testing.T) {
	t.Parallel()
	w := newWhoseWorld(t)
	doc := fmt.Sprintf(`{"version":1,"bookmarks":[
		{"site":"mangapill","series_id":"11","url":%q,"ids":[{"kind":"al","value":"990040"}]},
		{"site":"weebcentral","series_id":%q,"url":%q,"ids":[{"kind":"al","value":"990040"},{"kind":"al","value":"990041"}]}]}`,
		story11, wc12, story12)
	code, j, raw := w.post(w.bob, "application/json", []byte(doc))
	if code != http.StatusAccepted || j.State != "done" {
		t.Fatalf("Bob's import: %d %s", code, raw)
	}
	w.annUntouched()
	w.bobLinked()
	// The second al of one entry is left out, and the report says so.
	if !strings.Contains(fmt.Sprint(j.Unsupported), "al id 990041 was left out") {
		t.Fatalf("import report %+v: want the second al listed", j.Unsupported)
	}
}

// W5-1 through a tiny .tachibk: two manga with fake AniList tracking rows.
func TestWhoseWordBobsTachibkLeavesAnnAlone(t *testing.T) {
	t.Parallel()
	w := newWhoseWorld(t)
	track := []tachibktest.Track{{SyncID: tachibk.SyncAniList, MediaID: 990024}}
	b := tachibktest.Backup{
		Sources: []tachibktest.Source{{Name: "MangaPill", ID: 21}, {Name: "weeb central", ID: 22}},
		Manga: []tachibktest.Manga{
			{Source: 21, URL: "/manga/11/story-11", Title: "Story 11", Tracking: track},
			{Source: 22, URL: "/series/" + wc12, Title: "Story 12", Tracking: track},
		},
	}
	gz := b.Gzip()
	if len(gz) > 400 {
		t.Fatalf("the backup is %d bytes; the PoC's was 234", len(gz))
	}
	code, j, raw := w.post(w.bob, "application/gzip", gz)
	if code != http.StatusAccepted || j.State != "done" || j.Already != 2 {
		t.Fatalf("Bob's backup: %d %s", code, raw)
	}
	w.annUntouched()
	w.bobLinked()
}

// W5-1 through Site pages, and the giant Work: a MangaDex page's links
// are a Site's word and link for everyone, but a Work holds one Series per
// Site. Ann's MangaDex title A (the adapter's own fixture, al 30013) and
// Bob's title B, whose page claims the same links, are both MangaDex: B is
// not linked and the Owner sees the refusal. Twenty Comix pages that also
// claim al 30013 add one member, not twenty.
func TestWhoseWordHostileMangaDexPageMakesNoGiantWork(t *testing.T) {
	t.Parallel()
	w := newWhoseWorld(t)
	body, err := os.ReadFile("../sites/mangadex/testdata/manga.json")
	if err != nil {
		t.Fatal(err)
	}
	const a, b = "a1c7c817-4e59-43b7-9365-09675a149a6f", "b1c7c817-4e59-43b7-9365-09675a149a6f"
	w.bookmark(w.ann, "https://mangadex.org/title/"+a)
	w.bookmark(w.bob, "https://mangadex.org/title/"+b)
	for _, id := range []string{a, b} {
		f, _, err := mangadex.ParseManga(body, id, "https://uploads.mangadex.org")
		if err != nil || len(f.IDs) < 4 {
			t.Fatalf("the fixture's ids %+v (%v)", f.IDs, err)
		}
		var ids []store.ExternalID
		for _, x := range f.IDs {
			ids = append(ids, store.ExternalID{Kind: x.Kind, Value: x.Value})
		}
		w.chapter("mangadex", id, "5", ids...)
	}
	if n := w.count("work_members"); n != 0 {
		t.Fatalf("%d members: two MangaDex titles claiming one AniList id were linked", n)
	}
	for i := range 20 {
		id := fmt.Sprintf("c%04d-story", i)
		w.bookmark(w.bob, "https://comix.to/title/"+id)
		w.chapter("comix", id, "7", store.ExternalID{Kind: "al", Value: "30013"})
	}
	var members, works int
	if err := w.st.Pool().QueryRow(context.Background(), `SELECT count(*), count(DISTINCT work_id) FROM work_members`).
		Scan(&members, &works); err != nil {
		t.Fatal(err)
	}
	if works != 1 || members != 2 {
		t.Fatalf("%d members in %d Works after twenty Comix pages claimed al 30013: want one Work of MangaDex and one Comix member", members, works)
	}
	code, raw := w.do(w.ownerToken(), "GET", "/api/admin/works", "")
	var counts struct {
		Refused int `json:"refused"`
	}
	if code != http.StatusOK || json.Unmarshal(raw, &counts) != nil || counts.Refused != 20 {
		t.Fatalf("the Owner's counts: %d %s, want 20 refused (B and 19 Comix pages)", code, raw)
	}
	// Ann's title is in a Work of two, one Comix member by the Sites' word;
	// Bob's B is in no Work.
	var annWorks client.WorksResponse
	if code, raw := w.do(w.ann, "GET", "/api/works", ""); code != http.StatusOK || json.Unmarshal(raw, &annWorks) != nil ||
		len(annWorks.Works) != 1 || len(annWorks.Works[0].Members) != 2 {
		t.Fatalf("Ann's Works: %d %s, want one of two members", code, raw)
	}
	if n := w.count("work_hand_links"); n != 0 {
		t.Fatalf("%d hand links from Sites' ids", n)
	}
	if _, err := w.st.WorkOf(context.Background(), "mangadex", b); err == nil {
		t.Fatal("Bob's MangaDex title B is in a Work")
	}
}

// W5-6: Carol follows only "Story 22"; her suggestions list no Series
// only other Readers follow, however alike its title.
func TestWhoseWordSuggestionsStayInTheReadersLibrary(t *testing.T) {
	t.Parallel()
	w := newWhoseWorld(t)
	carol := w.token("300000000000000043")
	w.bookmark(carol, "https://mangapill.com/manga/22/story-22")
	w.chapter("mangapill", "22", "5")
	w.exec(`UPDATE series SET title = 'Story 22' WHERE series_id = '22'`)
	w.exec(`UPDATE series SET title = 'Story 22 Remastered' WHERE series_id = '11'`)
	w.exec(`UPDATE series SET title = 'Story 22' WHERE series_id = $1`, wc12)
	var card client.SeriesCard
	code, body := w.do(carol, "GET", "/api/series/mangapill/22", "")
	if code != http.StatusOK || json.Unmarshal(body, &card) != nil {
		t.Fatalf("Carol's Series: %d %s", code, body)
	}
	if len(card.Suggestions) != 0 {
		t.Fatalf("Carol's suggestions %+v: Series only Ann and Bob follow", card.Suggestions)
	}
	// Ann, who follows Story 11 (now "Story 22 Remastered"), is shown it
	// from Carol's title, but never Bob's Story 12.
	w.bookmark(w.ann, "https://mangapill.com/manga/22/story-22")
	code, body = w.do(w.ann, "GET", "/api/series/mangapill/22", "")
	if code != http.StatusOK || json.Unmarshal(body, &card) != nil || len(card.Suggestions) != 1 || card.Suggestions[0].SeriesID != "11" {
		t.Fatalf("Ann's suggestions: %d %s, want her own Story 11 only", code, body)
	}
}

func (w *whoseWorld) ownerToken() string { return w.token(ownerID) }

func (w *whoseWorld) exec(sql string, args ...any) {
	w.t.Helper()
	if _, err := w.st.Pool().Exec(context.Background(), sql, args...); err != nil {
		w.t.Fatal(err)
	}
}
