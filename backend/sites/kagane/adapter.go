package kagane

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"mangabookmark/backend/sites"
)

var (
	uuidRe = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	b32Re  = regexp.MustCompile(`^[0-9a-z]{26}$`)
)

// Adapter is the Kagane adapter.
type Adapter struct{}

var _ sites.Adapter = Adapter{}

// SeriesID accepts /series/{id}[/reader/{book}], with a UUID-like id or an
// older 26-character base32 id.
func (Adapter) SeriesID(u *url.URL) (string, error) {
	p := sites.PathSegments(u)
	if len(p) >= 2 && p[0] == "series" {
		id := strings.ToLower(p[1])
		if uuidRe.MatchString(id) || b32Re.MatchString(id) {
			return id, nil
		}
		return "", sites.NoSeries("kagane", fmt.Sprintf("%q is not a Kagane Series id", p[1]))
	}
	return "", sites.NoSeries("kagane", "a Series link looks like /series/{id}")
}

// SeriesURL is {origin}/series/{id}.
func (Adapter) SeriesURL(s *sites.Site, id string) string {
	return s.Base() + "/series/" + id
}

// request is what Read asks the route for: open the Series page, fetch
// the API path from inside it with the Origin and Referer the API expects.
func request(s *sites.Site, id string) sites.Request {
	base := s.Base()
	return sites.Request{Site: s, Page: base + "/series/" + id, Data: base + "/api/v2/series/" + id,
		Accept: "application/json", Header: map[string][]string{"Origin": {base}, "Referer": {base + "/"}}}
}

// Read fetches and parses the details, which carry the books, from inside
// the Series page, as every public client does; there is no second source.
func (Adapter) Read(ctx context.Context, s *sites.Site, f sites.Fetcher, id string) sites.Result {
	resp, res, ok := sites.Fetch(ctx, f, request(s, id), sites.JSON)
	if !ok {
		return res
	}
	facts, out, err := ParseSeries(resp.Body, s.Base(), id)
	return sites.Done(facts, out, resp.Status, err)
}
