package natomanga

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

// maxListingPage bounds the pages a caller may ask for: the Lane reads
// page 2 at most.
const maxListingPage = 10

var (
	_ sites.Lister        = Adapter{}
	_ sites.ListingShaper = Adapter{}
)

// ListingShape checks a latest-manga page for the selectors the listing
// reads.
func (Adapter) ListingShape(body []byte) []sites.Field {
	inCard := func(m func(*dom.Node) bool) func(*dom.Node) bool {
		return func(n *dom.Node) bool { return isCard(n) && dom.Find(n, m) != nil }
	}
	return dom.Fields(body,
		dom.Check{Name: "div.comic-list > .list-comic-item-wrap (or div.truyen-list > div.list-truyen-item-wrap)", Match: dom.Has(isCard)},
		dom.Check{Name: "card a[data-id]", Match: dom.Has(inCard(dom.WithAttr("a", "data-id")))},
		dom.Check{Name: "card h3 a", Match: dom.Has(func(n *dom.Node) bool { return isCard(n) && dom.Find(dom.Find(n, dom.Tag("h3")), dom.Tag("a")) != nil })},
		dom.Check{Name: "card a.list-story-item-wrap-chapter", Match: dom.Has(inCard(dom.WithClass("a", "list-story-item-wrap-chapter")))},
	)
}

// ListingURL is page (1-based) of the Series most recently updated.
func ListingURL(s *sites.Site, page int) string {
	return s.Base() + "/manga-list/latest-manga?page=" + strconv.Itoa(page)
}

// Listing reads /manga-list/latest-manga?page=N as a page load (the Site
// challenges its HTML, so each look is one tab load). Links are judged on
// the origin the read landed on, as the Series read does.
func (a Adapter) Listing(ctx context.Context, s *sites.Site, f sites.Fetcher, page int) sites.Listing {
	if page < 1 || page > maxListingPage {
		return sites.Listing{Outcome: sites.OK}
	}
	req := sites.Request{Site: s, Page: ListingURL(s, page), Accept: "text/html",
		Header: map[string][]string{"Referer": {s.Base() + "/"}}}
	resp, res, ok := sites.Fetch(ctx, f, req, sites.HTML)
	if !ok {
		return sites.ListingFail(res)
	}
	base := s.Base()
	if u := resp.FinalURL; u != nil && (u.Scheme == "http" || u.Scheme == "https") && s.OwnsHost(u.Host) {
		base = u.Scheme + "://" + u.Host
	}
	l := ParseListing(resp.Body, base, page)
	l.Status = resp.Status
	return l
}

// isCard matches a Series card the way keiyoushi's MangaBox and haruneko's
// MangaNel templates agree: div.list-truyen-item-wrap directly inside
// div.truyen-list, or .list-comic-item-wrap directly inside
// div.comic-list.
func isCard(n *dom.Node) bool {
	p := n.Parent
	if !dom.Is(n, "div") || p == nil || !dom.Is(p, "div") {
		return false
	}
	return (dom.HasClass(n, "list-truyen-item-wrap") && dom.HasClass(p, "truyen-list")) ||
		(dom.HasClass(n, "list-comic-item-wrap") && dom.HasClass(p, "comic-list"))
}

// ParseListing reads a latest-manga page: each card with an a[data-id]
// (keiyoushi's ":has(a[data-id])", which leaves out ads) is one Series,
// most recently updated first; its Series is the h3 a link (read through
// SeriesID on base's host, so a link elsewhere drops the card), its number
// the text of a.list-story-item-wrap-chapter when it names one. Cards
// give no time. More is set when the page links page+1 in its page bar
// (div.group_page or div.group-page). A page with no list container is
// no_chapter (a layout change); a container without cards is an empty
// listing.
func ParseListing(body []byte, base string, page int) sites.Listing {
	doc, err := dom.Parse(body)
	if err != nil {
		return sites.Listing{Outcome: sites.Unfetchable, Err: fmt.Errorf("natomanga: listing: %w: %w", err, sites.ErrUnusable)}
	}
	cards := dom.FindAll(doc, isCard)
	if len(cards) == 0 && dom.Find(doc, func(n *dom.Node) bool {
		return dom.Is(n, "div") && (dom.HasClass(n, "truyen-list") || dom.HasClass(n, "comic-list"))
	}) == nil {
		return sites.Listing{Outcome: sites.NoChapter, Err: fmt.Errorf("natomanga: the listing has no div.truyen-list or div.comic-list; the layout changed")}
	}
	l := sites.Listing{Outcome: sites.OK}
	for _, c := range cards {
		if dom.Find(c, dom.WithAttr("a", "data-id")) == nil {
			continue // an ad, not a Series
		}
		addCard(&l, c, base)
	}
	l.More = nextPage(doc, page)
	return l
}

func addCard(l *sites.Listing, card *dom.Node, base string) {
	var link *dom.Node
	if h := dom.Find(card, dom.Tag("h3")); h != nil {
		link = dom.Find(h, dom.Tag("a"))
	}
	id := ""
	if link != nil {
		href, _ := dom.Attr(link, "href")
		id = sites.SeriesFromLink(Adapter{}, base, href)
	}
	if id == "" {
		l.Dropped++
		return
	}
	e := sites.ListingEntry{SeriesID: id}
	if ch := dom.Find(card, dom.WithClass("a", "list-story-item-wrap-chapter")); ch != nil {
		e.Number, _ = sites.NumberFromName(dom.Text(ch))
	}
	l.Add(e)
}

// nextPage reports whether the page bar links page+1.
func nextPage(doc *dom.Node, page int) bool {
	bar := dom.Find(doc, func(n *dom.Node) bool {
		return dom.Is(n, "div") && (dom.HasClass(n, "group_page") || dom.HasClass(n, "group-page"))
	})
	want := strconv.Itoa(page + 1)
	return dom.Find(bar, func(n *dom.Node) bool {
		href, ok := dom.Attr(n, "href")
		if !dom.Is(n, "a") || !ok {
			return false
		}
		u, err := url.Parse(strings.TrimSpace(href))
		return err == nil && u.Query().Get("page") == want
	}) != nil
}
