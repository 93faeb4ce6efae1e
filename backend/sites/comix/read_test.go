package comix

import (
	"context"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
	"mangabookmark/backend/sites/sitestest"
)

// The live title page's initial-data is a React Query cache holding only
// the manga detail; the chapters come from the Site's own chapter API,
// fetched from inside the title page.
func TestReadCachePageAndChapterAPI(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "comix", Hosts: []string{"comix.to"}, Browser: true, Origin: base}
	page := base + "/title/" + id
	api := base + "/api/v2/manga/keqvv/chapters?order[number]=desc&limit=100&page=1"
	f := sitestest.NewFetcher()
	f.Set(page, sitestest.Answer{Resp: sitestest.Response(page, 200, "text/html", golden.Fixture(t, "title_cache.html"))})
	f.Set(api, sitestest.Answer{Resp: sitestest.Response(api, 200, "application/json", golden.Fixture(t, "chapters.json"))})
	res := Adapter{}.Read(context.Background(), site, f, id)
	if res.Outcome != sites.OK || res.Facts.Latest == nil {
		t.Fatalf("outcome %s (%v)", res.Outcome, res.Err)
	}
	fc := res.Facts
	if fc.Title != "Who's That Girl" || fc.CoverURL != "https://static.comix.to/ab12/i/3/9c/keqvv.jpg" {
		t.Errorf("title %q cover %q", fc.Title, fc.CoverURL)
	}
	if l := fc.Latest; l.Number != "41" || l.URL != base+"/title/"+id+"/5521804-chapter-41" || l.Title != "The Reveal" {
		t.Errorf("latest %+v", l)
	}
	reqs := f.Requests()
	if len(reqs) != 2 || reqs[0].Page != page || reqs[0].Data != "" || reqs[1].Page != page || reqs[1].Data != api {
		t.Errorf("requests %+v", reqs)
	}
}
