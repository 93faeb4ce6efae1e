package kagane

import (
	"context"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
	"mangabookmark/backend/sites/sitestest"
)

// A series answered without series_books has its books read from
// /api/v2/series/{id}/books/list, from inside the same Series page.
func TestReadBooksFromSecondEndpoint(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "kagane", Hosts: []string{"kagane.to"}, Browser: true, Origin: base}
	data, list := base+"/api/v2/series/"+id, base+"/api/v2/series/"+id+"/books/list"
	for _, books := range []string{"books_list.json", "books_list_array.json"} {
		f := sitestest.NewFetcher()
		f.Set(data, sitestest.Answer{Resp: sitestest.Response(data, 200, "application/json", golden.Fixture(t, "series_no_books.json"))})
		f.Set(list, sitestest.Answer{Resp: sitestest.Response(list, 200, "application/json", golden.Fixture(t, books))})
		res := Adapter{}.Read(context.Background(), site, f, id)
		if res.Outcome != sites.OK || res.Facts.Latest == nil {
			t.Fatalf("%s: outcome %s (%v)", books, res.Outcome, res.Err)
		}
		want := map[string]string{"books_list.json": "251", "books_list_array.json": "250.5"}[books]
		if res.Facts.Latest.Number != want || res.Facts.Title != "Omniscient Reader's Viewpoint" {
			t.Errorf("%s: facts %+v latest %+v, want %s", books, res.Facts, res.Facts.Latest, want)
		}
		reqs := f.Requests()
		if len(reqs) != 2 || reqs[1].Page != base+"/series/"+id || reqs[1].Data != list {
			t.Errorf("%s: requests %+v", books, reqs)
		}
	}
}

// When neither the details nor the books list carry books, the read is
// no_chapter (the adapter no longer understands the Site), not not_found.
func TestReadBooksListMissing(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "kagane", Hosts: []string{"kagane.to"}, Browser: true, Origin: base}
	data := base + "/api/v2/series/" + id
	f := sitestest.NewFetcher() // books/list answers the default 404 page
	f.Set(data, sitestest.Answer{Resp: sitestest.Response(data, 200, "application/json", golden.Fixture(t, "series_no_books.json"))})
	if res := (Adapter{}).Read(context.Background(), site, f, id); res.Outcome != sites.NoChapter {
		t.Errorf("outcome %s (%v), want no_chapter", res.Outcome, res.Err)
	}
}
