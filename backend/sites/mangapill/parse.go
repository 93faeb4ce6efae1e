package mangapill

import (
	"fmt"
	"strings"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

// ParsePage reads a Series page: the title is the first h1; the cover is
// div.container > div > div > img (data-src, else src); chapters are
// #chapters > div > a. A page without #chapters whose h1 starts "404" is
// the Site's not-found page.
func ParsePage(body []byte, base string) (sites.Facts, sites.Outcome, error) {
	doc, err := dom.Parse(body)
	if err != nil {
		return sites.Facts{}, sites.Unfetchable, fmt.Errorf("mangapill: page: %v: %w", err, sites.ErrUnusable)
	}
	var f sites.Facts
	if h := dom.Find(doc, dom.Tag("h1")); h != nil {
		f.Title = dom.Text(h)
	}
	f.CoverURL = cover(doc, base)
	list := dom.ByID(doc, "chapters")
	if list == nil && strings.HasPrefix(f.Title, "404") {
		return f, sites.NotFound, fmt.Errorf("mangapill: the Site's not-found page")
	}
	if list == nil {
		return f, sites.NoChapter, fmt.Errorf("mangapill: page has no #chapters")
	}
	rows := 0
	for _, div := range dom.Children(list) {
		if !dom.Is(div, "div") {
			continue
		}
		for _, a := range dom.Children(div) {
			if !dom.Is(a, "a") {
				continue
			}
			rows++
			name := dom.Text(a)
			num, ok := sites.NumberFromName(name)
			if !ok {
				continue
			}
			href, _ := dom.Attr(a, "href")
			f.Latest = &sites.Chapter{Number: num, Title: name, URL: sites.Resolve(base, href)}
			return f, sites.OK, nil
		}
	}
	return f, sites.NoChapter, fmt.Errorf("mangapill: %d chapter links, none with a chapter number", rows)
}

func cover(doc *dom.Node, base string) string {
	for _, c := range dom.FindAll(doc, func(n *dom.Node) bool { return dom.Is(n, "div") && dom.HasClass(n, "container") }) {
		if u := coverIn(c, base); u != "" {
			return u
		}
	}
	return ""
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
