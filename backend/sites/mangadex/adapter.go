package mangadex

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"mangabookmark/backend/sites"
)

// Public hosts of the API and of cover images. When the Site's origin is
// overridden (SITE_ORIGINS), both are replaced by that origin.
const (
	apiOrigin     = "https://api.mangadex.org"
	uploadsOrigin = "https://uploads.mangadex.org"
)

var uuidRe = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// Adapter is the MangaDex adapter.
type Adapter struct{}

var _ sites.Adapter = Adapter{}

// SeriesID accepts /title/{uuid}[/slug] and the older /manga/{uuid}.
// A chapter URL (/chapter/{uuid}) does not name its Series and is refused.
func (Adapter) SeriesID(u *url.URL) (string, error) {
	p := sites.PathSegments(u)
	if len(p) >= 2 && (p[0] == "title" || p[0] == "manga") {
		id := strings.ToLower(p[1])
		if uuidRe.MatchString(id) {
			return id, nil
		}
		return "", sites.NoSeries("mangadex", fmt.Sprintf("%q is not a MangaDex Series id", p[1]))
	}
	if len(p) >= 1 && p[0] == "chapter" {
		return "", sites.NoSeries("mangadex", "a chapter link does not say which Series it belongs to; use the Series page link")
	}
	return "", sites.NoSeries("mangadex", "a Series link looks like /title/{id}")
}

// SeriesURL is {origin}/title/{id}.
func (Adapter) SeriesURL(s *sites.Site, id string) string {
	return s.Base() + "/title/" + id
}

func hosts(s *sites.Site) (api, uploads string) {
	if s.Overridden {
		return s.Base(), s.Base()
	}
	return apiOrigin, uploadsOrigin
}

// feedQuery is the query of the feed request: English chapters of every
// content rating, newest chapter number first, none published in the
// future. It sets no includeEmptyPages or includeExternalUrl filter: an
// officially licensed title's English chapters are external links with
// no pages, and they are real releases (ParseFeed keeps them).
const feedQuery = "translatedLanguage[]=" + Language + "&order[chapter]=desc&limit=100&includeFuturePublishAt=0" +
	"&contentRating[]=safe&contentRating[]=suggestive&contentRating[]=erotica&contentRating[]=pornographic"

// Read fetches the manga entity, then the feed.
func (a Adapter) Read(ctx context.Context, s *sites.Site, f sites.Fetcher, id string) sites.Result {
	api, uploads := hosts(s)
	req := sites.Request{Site: s, Accept: "application/json"}
	req.Page = api + "/manga/" + url.PathEscape(id) + "?includes[]=cover_art"
	resp, res, ok := sites.Fetch(ctx, f, req, sites.JSON)
	if !ok {
		return res
	}
	facts, out, err := ParseManga(resp.Body, id, uploads)
	if out != sites.OK {
		return sites.Fail(out, resp.Status, err)
	}
	req.Page = api + "/manga/" + url.PathEscape(id) + "/feed?" + feedQuery
	resp, res, ok = sites.Fetch(ctx, f, req, sites.JSON)
	if !ok {
		return res
	}
	feed, out, err := ParseFeed(resp.Body, s.Base())
	facts.Latest, facts.Rows, facts.Skipped = feed.Latest, feed.Rows, feed.Skipped
	return sites.Done(facts, out, resp.Status, err)
}
