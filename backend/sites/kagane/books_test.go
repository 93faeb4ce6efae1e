package kagane

import (
	"context"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
	"mangabookmark/backend/sites/sitestest"
)

// Details without series_books read as an empty list, as keiyoushi's
// DetailsDto defaults it: no_chapter after the one request every public
// client makes. No guessed second endpoint (/books/list) is ever asked,
// however it would answer.
func TestReadWithoutSeriesBooksAsksNothingElse(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "kagane", Hosts: []string{"kagane.to"}, Browser: true, Origin: base}
	data, list := base+"/api/v2/series/"+id, base+"/api/v2/series/"+id+"/books/list"
	f := sitestest.NewFetcher()
	f.Set(data, sitestest.Answer{Resp: sitestest.Response(data, 200, "application/json", golden.Fixture(t, "series_no_books.json"))})
	f.Set(list, sitestest.Answer{Resp: sitestest.Response(list, 200, "application/json",
		[]byte(`{"series_books": [{"book_id": "b", "title": "Chapter 9", "sort_no": 9, "chapter_no": "9"}]}`))})
	res := Adapter{}.Read(context.Background(), site, f, id)
	if res.Outcome != sites.NoChapter || res.Facts.Latest != nil {
		t.Fatalf("outcome %s (%v), latest %+v, want no_chapter", res.Outcome, res.Err, res.Facts.Latest)
	}
	if reqs := f.Requests(); len(reqs) != 1 || reqs[0].Data != data {
		t.Errorf("requests %+v, want the details alone", reqs)
	}
}
