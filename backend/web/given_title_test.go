package web_test

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mangabookmark/backend/imports/tachibk/tachibktest"
	"mangabookmark/backend/store"
)

// A backup names the title of a Series no Lane has read yet: the
// importing Reader's card, Series page and Work page show it (cleaned:
// no control or bidi character, at most 300 characters), another Reader
// bookmarking the same Series never sees it (Bob's misleading title stays
// in Bob's library), the shared series.title stays empty, and once the
// Lane reads the Series' own title, that title wins.
func TestImportedTitleIsTheImportersOwn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, "")
	// Ann (Reader 1, the Owner) follows mangapill/901 and mangapill/902,
	// neither read yet: their URLs have no slug, so "Untitled on mangapill".
	for _, id := range []string{"901", "902"} {
		if _, err := f.st.AddBookmark(ctx, 1, "mangapill", id, "https://mangapill.test/series/"+id); err != nil {
			t.Fatal(err)
		}
	}
	// Bob (Reader 2) imports a backup: 901 under a friendly title, 902
	// under a hostile one (controls, a right-to-left override, a line
	// break), and 903 under 10 kB of title.
	hostile := "Free\x00 Chapters\u202e exe.evil\u2066 \x1b[31mhere\nnow"
	huge := strings.Repeat("ページ", 3400) // 10,200 characters, 30 kB
	b := tachibktest.Backup{
		Sources: []tachibktest.Source{{Name: "mangapill", ID: 31}},
		Manga: []tachibktest.Manga{
			{Source: 31, URL: "https://mangapill.test/series/901", Title: "The Summer Story"},
			{Source: 31, URL: "https://mangapill.test/series/902", Title: hostile},
			{Source: 31, URL: "https://mangapill.test/series/903", Title: huge},
		},
	}
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/import")
	a := f.postFile(t, c, tok, "library.tachibk", b.Gzip())
	if a.code != http.StatusSeeOther {
		t.Fatalf("upload: %d %s", a.code, a.body)
	}
	if job := f.get(t, c, a.header.Get("Location")); !strings.Contains(job.body, `data-state="done"`) || !strings.Contains(job.body, "3 added") {
		t.Fatalf("the import did not add the three Series: %s", job.body)
	}

	bob := f.get(t, c, "/?site=mangapill").body
	card := cardOf(bob, "mangapill", "901")
	for _, want := range []string{`>The Summer Story</a>`, `<div class="cover" aria-hidden="true">T</div>`} {
		if !strings.Contains(card, want) {
			t.Errorf("Bob's card of 901 lacks %q: %s", want, card)
		}
	}
	if page := f.get(t, c, "/series/mangapill/901").body; !strings.Contains(page, "<title>The Summer Story") {
		t.Errorf("Bob's Series page of 901 is not titled by his import: %.400s", page)
	}
	card = cardOf(bob, "mangapill", "902")
	if !strings.Contains(card, ">Free Chapters exe.evil [31mhere now</a>") {
		t.Errorf("Bob's card of 902 does not show the cleaned title: %s", card)
	}
	var got902, got903 string
	var len903 int
	if err := f.st.Pool().QueryRow(ctx, `SELECT
			(SELECT given_title FROM bookmarks WHERE reader_id = 2 AND site = 'mangapill' AND series_id = '902'),
			(SELECT given_title FROM bookmarks WHERE reader_id = 2 AND site = 'mangapill' AND series_id = '903'),
			(SELECT char_length(given_title) FROM bookmarks WHERE reader_id = 2 AND site = 'mangapill' AND series_id = '903')`).
		Scan(&got902, &got903, &len903); err != nil {
		t.Fatal(err)
	}
	if got902 != "Free Chapters exe.evil [31mhere now" {
		t.Errorf("902's stored title %q", got902)
	}
	if len903 != 300 || !strings.HasPrefix(huge, got903) {
		t.Errorf("903's stored title is %d characters, want the first 300", len903)
	}
	// The card writes the title four times (link, labels): 300
	// characters of three bytes each, not 30 kB.
	if card := cardOf(bob, "mangapill", "903"); len(card) > 5000 {
		t.Errorf("a 10 kB title made a card of %d bytes", len(card))
	}
	// Bob's word reached nobody else: the shared rows have no title and
	// Ann's cards, Series pages and JSON say "Untitled on mangapill".
	var shared int
	if err := f.st.Pool().QueryRow(ctx, `SELECT count(*) FROM series WHERE site = 'mangapill' AND series_id IN ('901', '902', '903') AND title <> ''`).Scan(&shared); err != nil || shared != 0 {
		t.Fatalf("%d shared Series carry an imported title (%v)", shared, err)
	}
	ann := f.login(t, f.ownerToken)
	annLib := f.get(t, ann, "/?site=mangapill").body
	for _, id := range []string{"901", "902"} {
		card := cardOf(annLib, "mangapill", id)
		if !strings.Contains(card, ">Untitled on mangapill</a>") {
			t.Errorf("Ann's card of %s: %s", id, card)
		}
		page := f.get(t, ann, "/series/mangapill/"+id).body
		for _, bad := range []string{"Summer Story", "Free Chapters", "exe.evil"} {
			if strings.Contains(card, bad) || strings.Contains(page, bad) {
				t.Errorf("Ann sees Bob's title %q on %s", bad, id)
			}
		}
	}
	// Ann's own import of 901 later names her own title: hers alone.
	atok := f.csrf(t, ann, "/import")
	csv := "url,title\nhttps://mangapill.test/series/901,'=Ann's Name\n"
	if a := f.postFile(t, ann, atok, "mine.csv", []byte(csv)); a.code != http.StatusSeeOther {
		t.Fatalf("Ann's upload: %d %s", a.code, a.body)
	}
	if card := cardOf(f.get(t, ann, "/?site=mangapill").body, "mangapill", "901"); !strings.Contains(card, ">=Ann&#39;s Name</a>") {
		t.Errorf("Ann's card of 901 after her import: %s", card)
	}
	if card := cardOf(f.get(t, c, "/?site=mangapill").body, "mangapill", "901"); !strings.Contains(card, ">The Summer Story</a>") {
		t.Errorf("Bob's card of 901 after Ann's import: %s", card)
	}
	// The Lane reads 901's own title: it wins for both.
	if _, err := f.st.RecordOK(ctx, "mangapill", "901", store.ReadFacts{Title: "Natsu no Monogatari", Number: "3"}, f.clock.Now()); err != nil {
		t.Fatal(err)
	}
	for who, cl := range map[string]*http.Client{"Bob": c, "Ann": ann} {
		card := cardOf(f.get(t, cl, "/?site=mangapill").body, "mangapill", "901")
		if !strings.Contains(card, ">Natsu no Monogatari</a>") {
			t.Errorf("%s's card of 901 after the Lane's read: %s", who, card)
		}
	}
	if page := f.get(t, c, "/series/mangapill/901").body; !regexp.MustCompile(`<title>Natsu no Monogatari`).MatchString(page) {
		t.Errorf("Bob's Series page after the Lane's read: %.400s", page)
	}
}

// A Work of two Series no Lane has read: the importing Reader's Work card,
// Work page and member rows are titled by their import; another Reader
// who bookmarks both sees none of it.
func TestImportedTitlesNameTheWork(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, "")
	for _, k := range [][2]string{{"mangapill", "911"}, {"comix", "912"}} {
		if _, err := f.st.AddBookmark(ctx, 1, k[0], k[1], "https://"+k[0]+".test/series/"+k[1]); err != nil {
			t.Fatal(err)
		}
	}
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/import")
	csv := "url,title\nhttps://mangapill.test/series/911,Bob's First Word\nhttps://comix.test/series/912,Bob's Second Word\n"
	if a := f.postFile(t, c, tok, "mine.csv", []byte(csv)); a.code != http.StatusSeeOther {
		t.Fatalf("upload: %d %s", a.code, a.body)
	}
	al := []store.ExternalID{{Kind: "al", Value: "99911", Source: store.IDFromSite}}
	if _, err := f.st.AddSeriesIDs(ctx, []store.SeriesIDs{{Site: "mangapill", SeriesID: "911", IDs: al}, {Site: "comix", SeriesID: "912", IDs: al}}); err != nil {
		t.Fatal(err)
	}
	w, err := f.st.WorkOf(ctx, "mangapill", "911")
	if v, _ := f.st.WorkOf(ctx, "comix", "912"); err != nil || w != v {
		t.Fatalf("the two Series did not link: %d %d %v", w, v, err)
	}
	path := "/works/" + strconv.FormatInt(w, 10)
	page := f.get(t, c, path).body
	for _, want := range []string{"<title>Bob&#39;s ", "Bob&#39;s First Word", "Bob&#39;s Second Word"} {
		if !strings.Contains(page, want) {
			t.Errorf("Bob's Work page lacks %q", want)
		}
	}
	if strings.Contains(page, ">911<") || strings.Contains(page, ">912<") {
		t.Error("Bob's Work page shows a raw id as a title")
	}
	lib := f.get(t, c, "/").body
	if !strings.Contains(lib, `data-work-id="`+strconv.FormatInt(w, 10)+`"`) || !strings.Contains(lib, ">Bob&#39;s ") {
		t.Error("Bob's Work card is not titled by his import")
	}
	ann := f.login(t, f.ownerToken)
	for _, p := range []string{path, "/"} {
		a := f.get(t, ann, p)
		if a.code != http.StatusOK || !strings.Contains(a.body, "Untitled on ") {
			t.Errorf("Ann's %s: %d, no untitled story", p, a.code)
		}
		if strings.Contains(a.body, "Bob&#39;s") || strings.Contains(a.body, "Word") {
			t.Errorf("Ann's %s shows Bob's title", p)
		}
	}
}
