package natomanga

import (
	"strings"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

var _ sites.Shaper = Adapter{}

// Shape checks the Series page and the chapter API answer for the fields
// the fixtures (keiyoushi MangaBox, gallery-dl manganelo) have.
func (Adapter) Shape(req sites.Request, body []byte) []sites.Field {
	if req.Data != "" {
		// chapter_name and chapter_num are fallbacks the live API does not
		// always send (gallery-dl reads neither): not part of the shape.
		return sites.JSONFields(body, "success", "data.chapters[]", "data.chapters[].chapter_slug", "data.chapters[].updated_at")
	}
	if strings.Contains(req.Page, "/manga-list/") {
		return dom.Fields(body,
			dom.Check{Name: "div.comic-list > .list-comic-item-wrap (or the truyen-list layout)", Match: dom.Has(isCard)},
			dom.Check{Name: "card a[data-id]", Match: dom.Has(func(n *dom.Node) bool { return isCard(n) && dom.Find(n, dom.WithAttr("a", "data-id")) != nil })},
			dom.Check{Name: "card h3 a", Match: dom.Has(func(n *dom.Node) bool { return isCard(n) && dom.Find(dom.Find(n, dom.Tag("h3")), dom.Tag("a")) != nil })},
			dom.Check{Name: "card a.list-story-item-wrap-chapter", Match: dom.Has(func(n *dom.Node) bool {
				return isCard(n) && dom.Find(n, dom.WithClass("a", "list-story-item-wrap-chapter")) != nil
			})},
		)
	}
	return dom.Fields(body,
		dom.Check{Name: "ul.manga-info-text h1", Match: dom.Has(func(n *dom.Node) bool {
			return dom.Is(n, "h1") && hasAncestor(n, dom.WithClass("ul", "manga-info-text"))
		})},
		dom.Check{Name: "div.manga-info-pic img", Match: dom.Has(func(n *dom.Node) bool {
			return dom.Is(n, "img") && hasAncestor(n, func(p *dom.Node) bool {
				return dom.WithClass("div", "manga-info-pic")(p) || dom.WithClass("span", "info-image")(p)
			})
		})},
	)
}

func hasAncestor(n *dom.Node, m func(*dom.Node) bool) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if m(p) {
			return true
		}
	}
	return false
}
