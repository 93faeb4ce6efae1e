package weebcentral

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

// maxListingPage bounds the pages a caller may ask for: the Lane reads page
// 2 at most; nothing past a few pages is a "latest" listing.
const maxListingPage = 10

var (
	_ sites.Lister        = Adapter{}
	_ sites.ListingShaper = Adapter{}
)

// ListingShape checks a latest-updates fragment for what ParseListing
// reads.
func (Adapter) ListingShape(body []byte) []sites.Field {
	inArticle := func(m func(*dom.Node) bool) func(*dom.Node) bool {
		return func(n *dom.Node) bool { return dom.Is(n, "article") && dom.Find(n, m) != nil }
	}
	return dom.Fields(body,
		dom.Check{Name: "article", Match: dom.Has(dom.Tag("article"))},
		dom.Check{Name: `article a[href*="/series/"]`, Match: dom.Has(inArticle(func(n *dom.Node) bool {
			h, _ := dom.Attr(n, "href")
			return dom.Is(n, "a") && strings.Contains(h, "/series/")
		}))},
		dom.Check{Name: "article time[datetime]", Match: dom.Has(inArticle(dom.WithAttr("time", "datetime")))},
	)
}

// Listing fetches /latest-updates/{page}, the fragment the home page's
// "Latest Updates" section loads (a plain GET serves it).
func (a Adapter) Listing(ctx context.Context, s *sites.Site, f sites.Fetcher, page int) sites.Listing {
	if page < 1 || page > maxListingPage {
		return sites.Listing{Outcome: sites.OK}
	}
	req := sites.Request{Site: s, Page: s.Base() + "/latest-updates/" + strconv.Itoa(page), Accept: "text/html"}
	resp, res, ok := sites.Fetch(ctx, f, req, sites.HTML)
	if !ok {
		return sites.ListingFail(res)
	}
	l := ParseListing(resp.Body, s.Base())
	l.Status = resp.Status
	return l
}

// ParseListing reads a latest-updates fragment: each article is one
// chapter release; its Series is the first a[href*="/series/"] (read
// through SeriesID: the chapter link names no Series), its label the last
// span (a number in any word, as on the chapter list), its time the
// time[datetime]. More is set when the fragment ends with its "View
// More" button. The fragment is bare articles with no container, so an
// empty (blank) fragment is a listing with no releases, OK with no entry:
// what a Site with nothing released yet, or a page past the last, serves.
// A fragment with markup but no article is no_chapter (a layout change).
func ParseListing(body []byte, base string) sites.Listing {
	if len(bytes.TrimSpace(body)) == 0 {
		return sites.Listing{Outcome: sites.OK}
	}
	doc, err := dom.Parse(body)
	if err != nil {
		return sites.Listing{Outcome: sites.Unfetchable, Err: fmt.Errorf("weebcentral: listing: %w: %w", err, sites.ErrUnusable)}
	}
	arts := dom.FindAll(doc, dom.Tag("article"))
	if len(arts) == 0 {
		return sites.Listing{Outcome: sites.NoChapter, Err: fmt.Errorf("weebcentral: listing has no article")}
	}
	l := sites.Listing{Outcome: sites.OK}
	for _, art := range arts {
		series := dom.Find(art, func(n *dom.Node) bool {
			h, _ := dom.Attr(n, "href")
			return dom.Is(n, "a") && strings.Contains(h, "/series/")
		})
		id := ""
		if series != nil {
			href, _ := dom.Attr(series, "href")
			id = sites.SeriesFromLink(Adapter{}, base, href)
		}
		if id == "" {
			l.Dropped++
			continue
		}
		e := sites.ListingEntry{SeriesID: id}
		if spans := dom.FindAll(art, dom.Tag("span")); len(spans) > 0 {
			e.Number, _ = sites.NumberFromName(dom.Text(spans[len(spans)-1]))
		}
		if tm := dom.Find(art, dom.Tag("time")); tm != nil {
			if v, ok := dom.Attr(tm, "datetime"); ok {
				if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
					e.SeenAt = t.UTC()
				}
			}
		}
		l.Add(e)
	}
	l.More = dom.Find(doc, func(n *dom.Node) bool {
		return (dom.Is(n, "button") || dom.Is(n, "span")) && strings.Contains(dom.Text(n), "View More")
	}) != nil
	return l
}
