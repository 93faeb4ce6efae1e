package mangapill

import (
	"fmt"
	"strings"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

// ParsePage reads a Series page. The Series block is the div.container
// whose div > div > img is the cover (data-src, else src); the title is
// the h1 inside that block, never the site header's; a page without such
// a block falls back to the first h1 outside header and nav (the
// not-found page). Chapters are #chapters > div > a, newest first. A page
// without #chapters whose h1 starts "404" is the Site's not-found page.
func ParsePage(body []byte, base string) (sites.Facts, sites.Outcome, error) {
	doc, err := dom.Parse(body)
	if err != nil {
		return sites.Facts{}, sites.Unfetchable, fmt.Errorf("mangapill: page: %w: %w", err, sites.ErrUnusable)
	}
	var f sites.Facts
	block := seriesBlock(doc, base)
	if block != nil {
		f.CoverURL = coverIn(block, base)
		if h := dom.Find(block, dom.Tag("h1")); h != nil {
			f.Title = dom.Text(h)
		}
	} else if h := dom.Find(doc, func(n *dom.Node) bool { return dom.Is(n, "h1") && !inChrome(n) }); h != nil {
		f.Title = dom.Text(h)
	}
	list := dom.ByID(doc, "chapters")
	if list == nil && strings.HasPrefix(f.Title, "404") {
		return f, sites.NotFound, fmt.Errorf("mangapill: the Site's not-found page")
	}
	if list == nil {
		return f, sites.NoChapter, fmt.Errorf("mangapill: page has no #chapters")
	}
	for _, div := range dom.Children(list) {
		if !dom.Is(div, "div") {
			continue
		}
		for _, a := range dom.Children(div) {
			if !dom.Is(a, "a") {
				continue
			}
			f.Rows++
			if f.Latest != nil {
				continue
			}
			name := dom.Text(a)
			num, ok := sites.NumberFromName(name)
			if !ok {
				f.Skip(sites.SkipNoNumber)
				continue
			}
			href, _ := dom.Attr(a, "href")
			f.Latest = &sites.Chapter{Number: num, Title: name, URL: sites.Resolve(base, href)}
		}
	}
	if f.Latest == nil {
		return f, sites.NoChapter, fmt.Errorf("mangapill: %d chapter links, none with a chapter number", f.Rows)
	}
	return f, sites.OK, nil
}

// seriesBlock is the first div.container holding the cover picture.
func seriesBlock(doc *dom.Node, base string) *dom.Node {
	for _, c := range dom.FindAll(doc, func(n *dom.Node) bool { return dom.Is(n, "div") && dom.HasClass(n, "container") }) {
		if coverIn(c, base) != "" {
			return c
		}
	}
	return nil
}

// inChrome reports whether n sits in the site's header or navigation.
func inChrome(n *dom.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if dom.Is(p, "header") || dom.Is(p, "nav") {
			return true
		}
	}
	return false
}

// coverIn follows div.container > div:first-child > div:first-child > img.
func coverIn(c *dom.Node, base string) string {
	for depth := 0; depth < 2; depth++ {
		kids := dom.Children(c)
		if len(kids) == 0 || !dom.Is(kids[0], "div") {
			return ""
		}
		c = kids[0]
	}
	for _, img := range dom.Children(c) {
		if !dom.Is(img, "img") {
			continue
		}
		if v, ok := dom.Attr(img, "data-src"); ok && v != "" {
			return sites.Resolve(base, v)
		}
		v, _ := dom.Attr(img, "src")
		return sites.Resolve(base, v)
	}
	return ""
}
