package mangapill

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"mangabookmark/backend/sites"
)

// Adapter is the MangaPill adapter.
type Adapter struct{}

var _ sites.Adapter = Adapter{}

// SeriesID accepts /manga/{n}[/slug] and chapter links
// /chapters/{n}-{code}[/slug], whose first number is the Series id.
func (Adapter) SeriesID(u *url.URL) (string, error) {
	p := sites.PathSegments(u)
	if len(p) >= 2 && p[0] == "manga" {
		return number(p[1])
	}
	if len(p) >= 2 && p[0] == "chapters" {
		id, _, ok := strings.Cut(p[1], "-")
		if !ok {
			return "", sites.NoSeries("mangapill", fmt.Sprintf("chapter link %q lacks its Series number", p[1]))
		}
		return number(id)
	}
	return "", sites.NoSeries("mangapill", "a Series link looks like /manga/{id}")
}

func number(s string) (string, error) {
	if s == "" || len(s) > 12 || strings.Trim(s, "0123456789") != "" {
		return "", sites.NoSeries("mangapill", fmt.Sprintf("%q is not a MangaPill Series number", s))
	}
	s = strings.TrimLeft(s, "0")
	if s == "" {
		return "", sites.NoSeries("mangapill", "Series number 0 does not exist")
	}
	return s, nil
}

// SeriesURL is {origin}/manga/{n}; the slug is cosmetic.
func (Adapter) SeriesURL(s *sites.Site, id string) string {
	return s.Base() + "/manga/" + id
}

// Read fetches the Series page with Referer set to the Site's root.
func (a Adapter) Read(ctx context.Context, s *sites.Site, f sites.Fetcher, id string) sites.Result {
	req := sites.Request{Site: s, Page: a.SeriesURL(s, id), Accept: "text/html",
		Header: map[string][]string{"Referer": {s.Base() + "/"}}}
	resp, res, ok := sites.Fetch(ctx, f, req, sites.HTML)
	if !ok {
		return res
	}
	facts, out, err := ParsePage(resp.Body, s.Base())
	return sites.Done(facts, out, resp.Status, err)
}
