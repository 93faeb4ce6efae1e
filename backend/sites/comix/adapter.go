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
		return "", fmt.Errorf("comix: %q is not a Comix title: %w", p[1], sites.ErrNoSeries)
	}
	return "", fmt.Errorf("comix: expected /title/{id}: %w", sites.ErrNoSeries)
}

// SeriesURL is {origin}/title/{hid}-{slug}.
func (Adapter) SeriesURL(s *sites.Site, id string) string {
	return s.Base() + "/title/" + id
}

// Read asks the route for the title page and parses its initial data.
func (a Adapter) Read(ctx context.Context, s *sites.Site, f sites.Fetcher, id string) sites.Result {
	req := sites.Request{Site: s, Page: a.SeriesURL(s, id), Accept: "text/html"}
	resp, res, ok := sites.Fetch(ctx, f, req, sites.HTML)
	if !ok {
		return res
	}
	facts, out, err := ParsePage(resp.Body, s.Base(), id)
	return sites.Done(facts, out, resp.Status, err)
}
