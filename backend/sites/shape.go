package sites

import (
	"encoding/json"
	"strings"
)

// Field is one thing an adapter reads from a document, named as its
// fixtures have it ("detail.latestChapter", "#chapters > div > a"), and
// whether a fetched document carries it.
type Field struct {
	Name  string `json:"name"`
	Found bool   `json:"found"`
}

// Shaper is an Adapter that can say, for a document it fetched, which of
// the fields its fixtures have are there and which are missing: the diff
// `mangabookmark probe` prints so one probe tells the developer what moved
// when a Site changes. req is the request the document answered; a
// document the adapter does not read gives nil.
type Shaper interface {
	Shape(req Request, body []byte) []Field
}

// JSONFields checks dotted paths into a JSON document: "a.b" is key b of
// object a, and "[]" after a key (or alone, first) means some element of
// that array: "data.chapters[].chapter_slug" is found when at least one
// chapter has a chapter_slug. A key present with null counts as found (the
// shape is the same; the value is the parser's business). A body that is
// not JSON finds nothing.
func JSONFields(body []byte, paths ...string) []Field {
	var doc any
	ok := json.Unmarshal(body, &doc) == nil
	out := make([]Field, 0, len(paths))
	for _, p := range paths {
		out = append(out, Field{Name: p, Found: ok && hasPath(doc, splitPath(p))})
	}
	return out
}

// splitPath turns "a.b[].c" into ["a", "b", "[]", "c"].
func splitPath(p string) []string {
	var parts []string
	for _, seg := range strings.Split(p, ".") {
		for strings.HasSuffix(seg, "[]") && seg != "[]" {
			parts = append(parts, strings.TrimSuffix(seg, "[]"))
			seg = "[]"
		}
		if seg != "" {
			parts = append(parts, seg)
		}
	}
	return parts
}

func hasPath(v any, parts []string) bool {
	if len(parts) == 0 {
		return true
	}
	if parts[0] == "[]" {
		arr, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range arr {
			if hasPath(e, parts[1:]) {
				return true
			}
		}
		return false
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return false
	}
	next, ok := obj[parts[0]]
	return ok && hasPath(next, parts[1:])
}
