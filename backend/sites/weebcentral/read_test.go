package weebcentral

import (
	"context"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
	"mangabookmark/backend/sites/sitestest"
)

// A removed Series answers 307 to /404, which answers 200 with the
// not-found page: the read is not_found (the Series is gone), never
// no_chapter. Only the Site's own /404 counts; a page that merely has 404
// somewhere in its path is read as usual.
func TestReadRemovedSeriesIsNotFound(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "weebcentral", Hosts: []string{"weebcentral.com"}, Origin: base}
	const id = "01J76XYCERXE60T7FKXVCCAQ0H"
	page := base + "/series/" + id
	list := page + "/full-chapter-list"
	cases := []struct {
		pageFinal, listFinal string
		want                 sites.Outcome
	}{
		{base + "/404", list, sites.NotFound},
		{base + "/404/", list, sites.NotFound},
		{page, base + "/404", sites.NotFound},
		{page, list, sites.OK},
		{base + "/series/404", list, sites.OK},
		{base + "/404x", list, sites.OK},
	}
	for i, c := range cases {
		f := sitestest.NewFetcher()
		pageBody, listBody := golden.Fixture(t, "series.html"), golden.Fixture(t, "chapters.html")
		if c.pageFinal == base+"/404" || c.pageFinal == base+"/404/" {
			pageBody = golden.Fixture(t, "not_found.html")
		}
		if c.listFinal == base+"/404" {
			listBody = golden.Fixture(t, "not_found.html")
		}
		f.Set(page, sitestest.Answer{Resp: sitestest.Response(c.pageFinal, 200, "text/html", pageBody)})
		f.Set(list, sitestest.Answer{Resp: sitestest.Response(c.listFinal, 200, "text/html", listBody)})
		res := Adapter{}.Read(context.Background(), site, f, id)
		if res.Outcome != c.want {
			t.Errorf("case %d (%s, %s): %s (%v), want %s", i, c.pageFinal, c.listFinal, res.Outcome, res.Err, c.want)
		}
	}
}
