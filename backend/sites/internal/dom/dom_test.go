package dom

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQueries(t *testing.T) {
	t.Parallel()
	doc, err := Parse([]byte(`<div id="a" class="x  flex y"><span>one</span><p><span> two
	 three </span></p></div><div class="flexible"></div>`))
	if err != nil {
		t.Fatal(err)
	}
	a := ByID(doc, "a")
	if a == nil || !HasClass(a, "flex") || HasClass(a, "fle") {
		t.Fatalf("ByID/HasClass: %v", a)
	}
	if got := len(Children(a)); got != 2 {
		t.Errorf("children %d", got)
	}
	spans := FindAll(doc, Tag("span"))
	if len(spans) != 2 || Text(spans[1]) != "two three" || Text(a) != "one two three" {
		t.Errorf("spans %d, text %q / %q", len(spans), Text(spans[1]), Text(a))
	}
	if Find(doc, func(n *Node) bool { return HasClass(n, "flex") }) != a {
		t.Error("Find did not return the first match")
	}
	if v, ok := Attr(a, "id"); !ok || v != "a" {
		t.Errorf("attr %q %v", v, ok)
	}
	if Find(nil, Tag("div")) != nil || Text(nil) != "" {
		t.Error("nil node")
	}
}

// A page wider than the walk bound still answers; one nested past the
// parser's depth limit is an error (adapters call that unfetchable).
func TestWalkBound(t *testing.T) {
	t.Parallel()
	if _, err := Parse([]byte(strings.Repeat("<div>", 20000))); err == nil {
		t.Error("20,000 nested elements parsed")
	}
	body := strings.Repeat("<div>", 100) + strings.Repeat("<i>x</i>", 300000)
	doc, err := Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(FindAll(doc, Tag("i"))); n == 0 || n > maxNodes {
		t.Errorf("%d matches", n)
	}
}

// A 4 MiB <h1> (one text node, or a million small ones) gives a bounded
// title, not a 4 MiB string.
func TestTextBound(t *testing.T) {
	for name, body := range map[string]string{
		"one node":   "<h1>" + strings.Repeat("Evil Title ", 400000) + "</h1>",
		"many nodes": "<h1>" + strings.Repeat("<b>Evil</b> ", 50000) + "</h1>",
	} {
		doc, err := Parse([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		got := Text(Find(doc, Tag("h1")))
		if len(got) > maxText || !strings.HasPrefix(got, "Evil") || !utf8.ValidString(got) {
			t.Errorf("%s: Text gave %d bytes (%.20q), want at most %d", name, len(got), got, maxText)
		}
	}
	doc, _ := Parse([]byte("<h1> A  <i>short</i>\n title </h1>"))
	if got := Text(Find(doc, Tag("h1"))); got != "A short title" {
		t.Errorf("Text = %q", got)
	}
}
