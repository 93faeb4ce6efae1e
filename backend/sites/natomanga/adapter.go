package natomanga

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"mangabookmark/backend/sites"
)

var slugRe = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,199}$`)

// Adapter is the Natomanga adapter.
type Adapter struct{}

var _ sites.Adapter = Adapter{}

// SeriesID accepts /manga/{slug} and chapter links /manga/{slug}/{chapter}.
func (Adapter) SeriesID(u *url.URL) (string, error) {
	p := sites.PathSegments(u)
	if len(p) >= 2 && p[0] == "manga" {
		slug := strings.ToLower(p[1])
		if slugRe.MatchString(slug) {
			return slug, nil
		}
		return "", sites.NoSeries("natomanga", fmt.Sprintf("%q is not a Series slug", p[1]))
	}
	return "", sites.NoSeries("natomanga", "a Series link looks like /manga/{slug}")
}

// SeriesURL is {origin}/manga/{slug}.
func (Adapter) SeriesURL(s *sites.Site, id string) string {
	return s.Base() + "/manga/" + id
}

// chaptersURL is the chapter JSON endpoint of a Series.
func chaptersURL(s *sites.Site, id string) string {
	return s.Base() + "/api/manga/" + url.PathEscape(id) + "/chapters?limit=-1"
}

// Read fetches the Series page, then the chapter JSON from inside it.
func (a Adapter) Read(ctx context.Context, s *sites.Site, f sites.Fetcher, id string) sites.Result {
	page := a.SeriesURL(s, id)
	resp, res, ok := sites.Fetch(ctx, f, sites.Request{Site: s, Page: page, Accept: "text/html"}, sites.HTML)
	if !ok {
		return res
	}
	facts, out, err := ParsePage(resp.Body, s.Base())
	if out != sites.OK {
		return sites.Fail(out, resp.Status, err)
	}
	req := sites.Request{Site: s, Page: page, Data: chaptersURL(s, id), Accept: "application/json",
		Header: map[string][]string{"Referer": {page}}}
	resp, res, ok = sites.Fetch(ctx, f, req, sites.JSON)
	if !ok {
		return res
	}
	list, out, err := ParseChapters(resp.Body, s.Base(), id)
	facts.Latest, facts.Rows, facts.Skipped = list.Latest, list.Rows, list.Skipped
	return sites.Done(facts, out, resp.Status, err)
}
