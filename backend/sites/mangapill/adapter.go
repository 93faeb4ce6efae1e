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
			return "", fmt.Errorf("mangapill: chapter link %q lacks its Series number: %w", p[1], sites.ErrNoSeries)
		}
		return number(id)
	}
	return "", fmt.Errorf("mangapill: expected /manga/{id}: %w", sites.ErrNoSeries)
}

func number(s string) (string, error) {
	if s == "" || len(s) > 12 || strings.Trim(s, "0123456789") != "" {
		return "", fmt.Errorf("mangapill: %q is not a MangaPill Series number: %w", s, sites.ErrNoSeries)
	}
	s = strings.TrimLeft(s, "0")
	if s == "" {
		return "", fmt.Errorf("mangapill: Series number 0 does not exist: %w", sites.ErrNoSeries)
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
