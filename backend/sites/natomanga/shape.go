package natomanga

import (
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
