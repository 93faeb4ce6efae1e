// Package dom is the few HTML queries the HTML adapters need, over
// golang.org/x/net/html: find elements by tag, class, id or attribute,
// walk children, read text and attributes.
package dom

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Node is a parsed HTML node.
type Node = html.Node

// maxNodes bounds a walk so a hostile page cannot make a query quadratic.
const maxNodes = 500000

// Parse reads an HTML document. The parser is lenient: any bytes parse.
func Parse(body []byte) (*Node, error) {
	return html.Parse(bytes.NewReader(body))
}

// Is reports whether n is an element with that tag (lowercase).
func Is(n *Node, tag string) bool {
	return n != nil && n.Type == html.ElementNode && n.Data == tag
}

// Attr returns the value of an attribute, and whether it exists.
func Attr(n *Node, key string) (string, bool) {
	if n == nil {
		return "", false
	}
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// HasClass reports whether n's class list holds c.
func HasClass(n *Node, c string) bool {
	v, _ := Attr(n, "class")
	for _, f := range strings.Fields(v) {
		if f == c {
			return true
		}
	}
	return false
}

// Find returns the first element under n (n excluded), in document order,
// that satisfies match.
func Find(n *Node, match func(*Node) bool) *Node {
	var out *Node
	walk(n, func(c *Node) bool {
		if c != n && c.Type == html.ElementNode && match(c) {
			out = c
			return false
		}
		return true
	})
	return out
}

// FindAll returns every element under n that satisfies match.
func FindAll(n *Node, match func(*Node) bool) []*Node {
	var out []*Node
	walk(n, func(c *Node) bool {
		if c != n && c.Type == html.ElementNode && match(c) {
			out = append(out, c)
		}
		return true
	})
	return out
}

func walk(n *Node, visit func(*Node) bool) {
	if n == nil {
		return
	}
	count := 0
	stack := []*Node{n}
	for len(stack) > 0 && count < maxNodes {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		count++
		if !visit(c) {
			return
		}
		// Push children in reverse so they pop in document order.
		for k := c.LastChild; k != nil; k = k.PrevSibling {
			stack = append(stack, k)
		}
	}
}

// Children returns n's element children.
func Children(n *Node) []*Node {
	var out []*Node
	if n == nil {
		return nil
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			out = append(out, c)
		}
	}
	return out
}

// ByID finds the element with that id.
func ByID(n *Node, id string) *Node {
	return Find(n, func(c *Node) bool { v, ok := Attr(c, "id"); return ok && v == id })
}

// Tag matches elements by tag name.
func Tag(tag string) func(*Node) bool {
	a := atom.Lookup([]byte(tag))
	return func(c *Node) bool { return (a != 0 && c.DataAtom == a) || c.Data == tag }
}

// maxText bounds the text Text collects, in bytes: a title is cut to 300
// characters when stored, so a 4 MiB <h1> must not become a 4 MiB string.
const maxText = 4096

// Text is the whitespace-collapsed text under n, at most maxText bytes.
func Text(n *Node) string {
	var b strings.Builder
	walk(n, func(c *Node) bool {
		if c.Type == html.TextNode {
			for _, f := range strings.Fields(c.Data[:min(len(c.Data), maxText)]) {
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(f)
				if b.Len() >= maxText {
					return false
				}
			}
		}
		return true
	})
	return strings.ToValidUTF8(b.String()[:min(b.Len(), maxText)], "")
}
