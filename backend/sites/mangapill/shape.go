package mangapill

import (
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

var _ sites.Shaper = Adapter{}

// Shape checks the Series page for the selectors the fixtures (keiyoushi
// MangaPill.kt) have.
func (Adapter) Shape(_ sites.Request, body []byte) []sites.Field {
	chapters := func(n *dom.Node) bool { v, _ := dom.Attr(n, "id"); return v == "chapters" }
	return dom.Fields(body,
		dom.Check{Name: "#chapters > div > a", Match: dom.Has(dom.ChildOf("a", dom.ChildOf("div", chapters)))},
		dom.Check{Name: "div.container img[data-src]", Match: dom.Has(func(n *dom.Node) bool {
			if !dom.WithAttr("img", "data-src")(n) {
				return false
			}
			for p := n.Parent; p != nil; p = p.Parent {
				if dom.WithClass("div", "container")(p) {
					return true
				}
			}
			return false
		})},
		dom.Check{Name: "h1", Match: dom.Has(dom.Tag("h1"))},
	)
}
