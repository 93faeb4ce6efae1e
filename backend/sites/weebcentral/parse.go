package weebcentral

import (
	"fmt"
	"strings"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

// ParsePage reads the title and cover from a Series page: the first
// section[x-data] holds two sections, the first with the cover picture
// (source[srcset] with "small" swapped for "normal", else img[src]), the
// second with the h1 title. A page without that section gives empty facts:
// the chapter list alone decides whether the read worked.
func ParsePage(body []byte, base string) (sites.Facts, sites.Outcome, error) {
	doc, err := dom.Parse(body)
	if err != nil {
		return sites.Facts{}, sites.Unfetchable, fmt.Errorf("weebcentral: page: %w: %w", err, sites.ErrUnusable)
	}
	top := dom.Find(doc, func(n *dom.Node) bool {
		_, ok := dom.Attr(n, "x-data")
		return dom.Is(n, "section") && ok
	})
	if top == nil {
		return sites.Facts{}, sites.OK, nil
	}
	var inner []*dom.Node
	for _, c := range dom.Children(top) {
		if dom.Is(c, "section") {
			inner = append(inner, c)
		}
	}
	var f sites.Facts
	if len(inner) > 0 {
		if src := dom.Find(inner[0], dom.Tag("source")); src != nil {
			if v, ok := dom.Attr(src, "srcset"); ok {
				first := strings.Fields(strings.Split(v, ",")[0])
				if len(first) > 0 {
					f.CoverURL = sites.Resolve(base, strings.Replace(first[0], "small", "normal", 1))
				}
			}
		}
		if f.CoverURL == "" {
			if img := dom.Find(inner[0], dom.Tag("img")); img != nil {
				v, _ := dom.Attr(img, "src")
				f.CoverURL = sites.Resolve(base, v)
			}
		}
	}
	if len(inner) > 1 {
		if h := dom.Find(inner[1], dom.Tag("h1")); h != nil {
			f.Title = dom.Text(h)
		}
	}
	return f, sites.OK, nil
}

// ParseChapterList reads a full-chapter-list body: rows are div[x-data] >
// a, the label in span.flex > span, the time in time[datetime]. The first
// row whose label gives a number (whatever its word: "Chapter 18",
// "Episode 139.5", "Navigation 67.5") is the Latest Chapter, the list being
// newest first; rows before it without a number ("Epilogue") are counted in
// Skipped. The returned Facts carry Latest, Rows and Skipped only.
func ParseChapterList(body []byte, base string) (sites.Facts, sites.Outcome, error) {
	var f sites.Facts
	doc, err := dom.Parse(body)
	if err != nil {
		return f, sites.Unfetchable, fmt.Errorf("weebcentral: chapter list: %w: %w", err, sites.ErrUnusable)
	}
	for _, div := range dom.FindAll(doc, func(n *dom.Node) bool {
		_, ok := dom.Attr(n, "x-data")
		return dom.Is(n, "div") && ok
	}) {
		for _, a := range dom.Children(div) {
			if !dom.Is(a, "a") {
				continue
			}
			f.Rows++
			if f.Latest != nil {
				continue
			}
			name := rowName(a)
			num, ok := sites.NumberFromName(name)
			if !ok {
				f.Skip(sites.SkipNoNumber)
				continue
			}
			href, _ := dom.Attr(a, "href")
			ch := &sites.Chapter{Number: num, Title: name, URL: sites.Resolve(base, href)}
			if tm := dom.Find(a, dom.Tag("time")); tm != nil {
				if v, ok := dom.Attr(tm, "datetime"); ok {
					if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
						ch.ReleasedAt = t.UTC()
					}
				}
			}
			f.Latest = ch
		}
	}
	if f.Latest == nil {
		return f, sites.NoChapter, fmt.Errorf("weebcentral: %d chapter rows, none with a chapter number", f.Rows)
	}
	return f, sites.OK, nil
}

// rowName is the text of the first span.flex > span in a row.
func rowName(a *dom.Node) string {
	for _, sp := range dom.FindAll(a, func(n *dom.Node) bool { return dom.Is(n, "span") && dom.HasClass(n, "flex") }) {
		for _, c := range dom.Children(sp) {
			if dom.Is(c, "span") {
				return dom.Text(c)
			}
		}
	}
	return ""
}
