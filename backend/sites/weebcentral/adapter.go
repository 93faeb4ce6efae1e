package weebcentral

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"mangabookmark/backend/sites"
)

var ulidRe = regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{26}$`)

// Adapter is the WeebCentral adapter.
type Adapter struct{}

var _ sites.Adapter = Adapter{}

// SeriesID accepts /series/{ULID}[/Slug...]. Chapter links (/chapters/{ULID})
// do not name their Series and are refused.
func (Adapter) SeriesID(u *url.URL) (string, error) {
	p := sites.PathSegments(u)
	if len(p) >= 2 && p[0] == "series" {
		id := strings.ToUpper(p[1])
		if ulidRe.MatchString(id) {
			return id, nil
		}
		return "", sites.NoSeries("weebcentral", fmt.Sprintf("%q is not a WeebCentral Series id", p[1]))
	}
	if len(p) >= 1 && p[0] == "chapters" {
		return "", sites.NoSeries("weebcentral", "a chapter link does not say which Series it belongs to; use the Series page link")
	}
	return "", sites.NoSeries("weebcentral", "a Series link looks like /series/{id}")
}

// SeriesURL is {origin}/series/{id}; the slug after it is cosmetic.
func (Adapter) SeriesURL(s *sites.Site, id string) string {
	return s.Base() + "/series/" + id
}

// Read fetches the Series page, then the full chapter list.
func (a Adapter) Read(ctx context.Context, s *sites.Site, f sites.Fetcher, id string) sites.Result {
	page := a.SeriesURL(s, id)
	req := sites.Request{Site: s, Page: page, Accept: "text/html"}
	resp, res, ok := sites.Fetch(ctx, f, req, sites.HTML)
	if !ok {
		return res
	}
	if removed(resp) {
		return sites.Fail(sites.NotFound, resp.Status, errRemoved)
	}
	facts, out, err := ParsePage(resp.Body, s.Base())
	if out != sites.OK {
		return sites.Fail(out, resp.Status, err)
	}
	req.Page = page + "/full-chapter-list"
	// The page asks for the list through htmx; send what htmx sends.
	req.Header = map[string][]string{"Referer": {page}, "Hx-Request": {"true"}, "Hx-Target": {"chapter-list"}, "Hx-Current-Url": {page}}
	resp, res, ok = sites.Fetch(ctx, f, req, sites.HTML)
	if !ok {
		return res
	}
	if removed(resp) {
		return sites.Fail(sites.NotFound, resp.Status, errRemoved)
	}
	list, out, err := ParseChapterList(resp.Body, s.Base())
	facts.Latest, facts.Rows, facts.Skipped = list.Latest, list.Rows, list.Skipped
	return sites.Done(facts, out, resp.Status, err)
}

// errRemoved says why a read that landed on /404 is not_found.
var errRemoved = errors.New("weebcentral: the Site redirected the Series to its /404 page (answered 200): the Series is gone")

// removed reports whether the answer is the Site's not-found page reached
// by redirect: WeebCentral answers a removed or unknown Series with 307 to
// /404, and /404 answers 200.
func removed(resp *sites.Response) bool {
	return resp.FinalURL != nil && strings.TrimRight(resp.FinalURL.Path, "/") == "/404"
}
