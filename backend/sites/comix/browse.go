package comix

import (
	"context"
	"encoding/json"
	"fmt"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

var _ sites.ListingTrial = Adapter{}

// BrowsePath is the page keiyoushi's getLatestUpdates reads the Series
// most recently updated from (its second path: the page's initial-data).
const BrowsePath = "/browse?order[chapter_updated_at]=desc"

// TryListing reads the browse page once through the route and reports
// whether its initial-data carries the list (docs/operations.md,
// "Listings": Comix has no listing until a capture shows it does).
func (Adapter) TryListing(ctx context.Context, s *sites.Site, f sites.Fetcher) sites.Listing {
	req := sites.Request{Site: s, Page: s.Base() + BrowsePath, Accept: "text/html"}
	resp, res, ok := sites.Fetch(ctx, f, req, sites.HTML)
	if !ok {
		return sites.ListingFail(res)
	}
	l := ParseBrowse(resp.Body)
	l.Status = resp.Status
	return l
}

type browseItem struct {
	Hid  string `json:"hid"`
	Slug string `json:"slug"`
}

// ParseBrowse looks in the browse page's <script id="initial-data">
// queries for a search answer ({result: {items: [{hid, slug, ...}]}}, the
// shape keiyoushi parses it as): each item is a line whose Series is
// "{hid}-{slug}" as SeriesID would give it. A page whose initial-data
// holds no items (the list then arrives by a request the page signs) is
// no_chapter, saying so; a page without initial-data is no_chapter too.
func ParseBrowse(body []byte) sites.Listing {
	doc, err := dom.Parse(body)
	if err != nil {
		return sites.Listing{Outcome: sites.Unfetchable, Err: fmt.Errorf("comix: browse: %w: %w", err, sites.ErrUnusable)}
	}
	script := dom.ByID(doc, "initial-data")
	if script == nil || !dom.Is(script, "script") || script.FirstChild == nil {
		return sites.Listing{Outcome: sites.NoChapter, Err: fmt.Errorf("comix: the browse page has no initial-data script")}
	}
	var cache struct {
		Queries map[string]json.RawMessage `json:"queries"`
	}
	if err := json.Unmarshal([]byte(script.FirstChild.Data), &cache); err != nil {
		return sites.Listing{Outcome: sites.NoChapter, Err: fmt.Errorf("comix: the browse page's initial-data is not a query cache")}
	}
	for _, raw := range cache.Queries {
		var page struct {
			Items *[]browseItem `json:"items"`
		}
		if json.Unmarshal(unwrap(raw), &page) != nil || page.Items == nil {
			continue
		}
		l := sites.Listing{Outcome: sites.OK}
		for _, it := range *page.Items {
			id := it.Hid
			if it.Slug != "" {
				id += "-" + it.Slug
			}
			if !idRe.MatchString(id) {
				l.Dropped++
				continue
			}
			l.Add(sites.ListingEntry{SeriesID: id})
		}
		return l
	}
	return sites.Listing{Outcome: sites.NoChapter, Err: fmt.Errorf("comix: the browse page's initial-data holds no items: its list arrives by a later request, so Comix stays on Rest")}
}
