package mangapill

import (
	"context"
	"fmt"
	"strings"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

var (
	_ sites.Lister        = Adapter{}
	_ sites.ListingShaper = Adapter{}
)

// ListingShape checks a /chapters page for what ParseListing reads.
func (Adapter) ListingShape(body []byte) []sites.Field {
	inGrid := func(n *dom.Node) bool {
		for p := n.Parent; p != nil; p = p.Parent {
			if dom.WithClass("div", "grid")(p) {
				return true
			}
		}
		return false
	}
	return dom.Fields(body,
		dom.Check{Name: "div.grid > div", Match: dom.Has(dom.ChildOf("div", dom.WithClass("div", "grid")))},
		dom.Check{Name: `div.grid a[href^="/manga/"]`, Match: dom.Has(func(n *dom.Node) bool { return hrefPrefix("/manga/")(n) && inGrid(n) })},
		dom.Check{Name: `div.grid a[href^="/chapters/"]`, Match: dom.Has(func(n *dom.Node) bool { return hrefPrefix("/chapters/")(n) && inGrid(n) })},
		dom.Check{Name: "time-ago[datetime]", Match: dom.Has(dom.WithAttr("time-ago", "datetime"))},
	)
}

// Listing fetches /chapters, the Site's newest chapters. The Site has one
// listing page (no next-page link): page 2 gives nothing and More false.
func (a Adapter) Listing(ctx context.Context, s *sites.Site, f sites.Fetcher, page int) sites.Listing {
	if page != 1 {
		return sites.Listing{Outcome: sites.OK}
	}
	req := sites.Request{Site: s, Page: s.Base() + "/chapters", Accept: "text/html",
		Header: map[string][]string{"Referer": {s.Base() + "/"}}}
	resp, res, ok := sites.Fetch(ctx, f, req, sites.HTML)
	if !ok {
		return sites.ListingFail(res)
	}
	l := ParseListing(resp.Body, s.Base())
	l.Status = resp.Status
	return l
}

// ParseListing reads a /chapters page: each card is a div without a class
// directly inside a div.grid; its Series is the first a[href^="/manga/"]
// (read through SeriesID, so a link that names no Series drops the card),
// its number the text of the chapter link (a[href^="/chapters/"]), its
// time the time-ago[datetime] inside it. A page with no grid is
// no_chapter (a layout change).
func ParseListing(body []byte, base string) sites.Listing {
	doc, err := dom.Parse(body)
	if err != nil {
		return sites.Listing{Outcome: sites.Unfetchable, Err: fmt.Errorf("mangapill: listing: %w: %w", err, sites.ErrUnusable)}
	}
	grids := dom.FindAll(doc, func(n *dom.Node) bool { return dom.Is(n, "div") && dom.HasClass(n, "grid") })
	if len(grids) == 0 {
		return sites.Listing{Outcome: sites.NoChapter, Err: fmt.Errorf("mangapill: listing page has no div.grid")}
	}
	l := sites.Listing{Outcome: sites.OK}
	for _, g := range grids {
		for _, card := range dom.Children(g) {
			if !dom.Is(card, "div") {
				continue
			}
			if _, has := dom.Attr(card, "class"); has {
				continue
			}
			addCard(&l, card, base)
		}
	}
	return l
}

func hrefPrefix(prefix string) func(*dom.Node) bool {
	return func(n *dom.Node) bool {
		h, _ := dom.Attr(n, "href")
		return dom.Is(n, "a") && strings.HasPrefix(h, prefix)
	}
}

// addCard adds one card's entry, or counts it dropped when its Series
// link names no MangaPill Series on this Site.
func addCard(l *sites.Listing, card *dom.Node, base string) {
	series := dom.Find(card, hrefPrefix("/manga/"))
	if series == nil {
		l.Dropped++
		return
	}
	href, _ := dom.Attr(series, "href")
	id := sites.SeriesFromLink(Adapter{}, base, href)
	if id == "" {
		l.Dropped++
		return
	}
	e := sites.ListingEntry{SeriesID: id}
	if ch := dom.Find(card, hrefPrefix("/chapters/")); ch != nil {
		e.Number, _ = sites.NumberFromName(dom.Text(ch))
	}
	if tm := dom.Find(card, dom.Tag("time-ago")); tm != nil {
		if v, ok := dom.Attr(tm, "datetime"); ok {
			if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
				e.SeenAt = t.UTC()
			}
		}
	}
	l.Add(e)
}
