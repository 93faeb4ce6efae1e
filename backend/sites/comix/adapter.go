package comix

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"mangabookmark/backend/sites"
)

var idRe = regexp.MustCompile(`^[a-z0-9]{3,16}(-[a-z0-9-]{0,200})?$`)

// Adapter is the Comix adapter.
type Adapter struct{}

var _ sites.Adapter = Adapter{}

// SeriesID accepts /title/{hid}-{slug} and chapter links
// /title/{hid}-{slug}/{id}-chapter-{n}.
func (Adapter) SeriesID(u *url.URL) (string, error) {
	p := sites.PathSegments(u)
	if len(p) >= 2 && p[0] == "title" {
		id := strings.Trim(strings.ToLower(p[1]), "-")
		if idRe.MatchString(id) {
			return id, nil
		}
		return "", sites.NoSeries("comix", fmt.Sprintf("%q is not a Comix title", p[1]))
	}
	return "", sites.NoSeries("comix", "a Series link looks like /title/{id}")
}

// SeriesURL is {origin}/title/{hid}-{slug}.
func (Adapter) SeriesURL(s *sites.Site, id string) string {
	return s.Base() + "/title/" + id
}

// Hid is the short hash id a Series id starts with ("keqvv" of
// "keqvv-whos-that-girl"), which the API paths use.
func Hid(id string) string {
	hid, _, _ := strings.Cut(id, "-")
	return hid
}

// chaptersURL is the chapter API request the title page itself makes:
// newest number first, one page of 100.
func chaptersURL(s *sites.Site, id string) string {
	return s.Base() + "/api/v2/manga/" + url.PathEscape(Hid(id)) + "/chapters?order[number]=desc&limit=100&page=1"
}

// Read opens the title page for the title and poster in its query cache,
// then fetches the chapter API from inside the same page (same origin,
// the page's cookies), as the page and keiyoushi's Comix source do.
func (a Adapter) Read(ctx context.Context, s *sites.Site, f sites.Fetcher, id string) sites.Result {
	page := a.SeriesURL(s, id)
	req := sites.Request{Site: s, Page: page, Accept: "text/html"}
	resp, res, ok := sites.Fetch(ctx, f, req, sites.HTML)
	if !ok {
		return res
	}
	facts, out, err := ParsePage(resp.Body, s.Base())
	if out != sites.OK {
		return sites.Fail(out, resp.Status, err)
	}
	req = sites.Request{Site: s, Page: page, Data: chaptersURL(s, id), Accept: "application/json",
		Header: map[string][]string{"Referer": {page}}}
	resp, res, ok = sites.Fetch(ctx, f, req, sites.JSON)
	if !ok {
		return res
	}
	list, out, err := ParseChapters(resp.Body, s.Base(), id)
	facts.Latest, facts.Rows, facts.Skipped = list.Latest, list.Rows, list.Skipped
	return sites.Done(facts, out, resp.Status, err)
}
