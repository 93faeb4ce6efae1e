package weebcentral

import (
	"strings"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

var _ sites.Shaper = Adapter{}

// Shape checks the Series page and the full chapter list for the
// selectors the fixtures (keiyoushi WeebCentral.kt, gallery-dl) have.
func (Adapter) Shape(req sites.Request, body []byte) []sites.Field {
	if strings.HasSuffix(req.Target(), "/full-chapter-list") {
		row := dom.ChildOf("a", dom.WithAttr("div", "x-data"))
		return dom.Fields(body,
			dom.Check{Name: "div[x-data] > a", Match: dom.Has(row)},
			dom.Check{Name: "div[x-data] > a span.flex > span", Match: dom.Has(func(n *dom.Node) bool {
				return dom.Is(n, "span") && n.Parent != nil && dom.WithClass("span", "flex")(n.Parent) && inside(n, row)
			})},
			dom.Check{Name: "div[x-data] > a time[datetime]", Match: dom.Has(func(n *dom.Node) bool {
				return dom.WithAttr("time", "datetime")(n) && inside(n, row)
			})},
		)
	}
	sec := dom.ChildOf("section", dom.WithAttr("section", "x-data"))
	return dom.Fields(body,
		dom.Check{Name: "section[x-data] > section", Match: dom.Has(sec)},
		dom.Check{Name: "section[x-data] > section source[srcset]", Match: dom.Has(func(n *dom.Node) bool {
			return dom.WithAttr("source", "srcset")(n) && inside(n, sec)
		})},
		dom.Check{Name: "section[x-data] > section h1", Match: dom.Has(func(n *dom.Node) bool { return dom.Is(n, "h1") && inside(n, sec) })},
	)
}

func inside(n *dom.Node, m func(*dom.Node) bool) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if m(p) {
			return true
		}
	}
	return false
}
