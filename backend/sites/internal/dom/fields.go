package dom

import "mangabookmark/backend/sites"

// Check names one field of an HTML document, as the adapter's fixtures
// have it ("#chapters > div > a"), and finds it in a parsed document.
type Check struct {
	Name  string
	Match func(doc *Node) bool
}

// Fields runs the checks over body: the shape diff an adapter's Shape
// returns for an HTML document.
func Fields(body []byte, checks ...Check) []sites.Field {
	doc, err := Parse(body)
	out := make([]sites.Field, 0, len(checks))
	for _, c := range checks {
		out = append(out, sites.Field{Name: c.Name, Found: err == nil && c.Match(doc)})
	}
	return out
}

// Has is a Check's Match for "some element matches m".
func Has(m func(*Node) bool) func(*Node) bool {
	return func(doc *Node) bool { return Find(doc, m) != nil }
}

// ChildOf matches an element of tag whose parent matches parent.
func ChildOf(tag string, parent func(*Node) bool) func(*Node) bool {
	return func(n *Node) bool { return Is(n, tag) && n.Parent != nil && parent(n.Parent) }
}

// WithAttr matches an element of tag carrying the attribute key.
func WithAttr(tag, key string) func(*Node) bool {
	return func(n *Node) bool {
		_, ok := Attr(n, key)
		return Is(n, tag) && ok
	}
}

// WithClass matches an element of tag carrying the class c.
func WithClass(tag, c string) func(*Node) bool {
	return func(n *Node) bool { return Is(n, tag) && HasClass(n, c) }
}
