package web

import (
	"html"
	"strings"
)

// esc escapes text for an element body or a double-quoted attribute, for
// the hand-written failing rows (rows.go).
func esc(s string) string { return html.EscapeString(s) }

// siteLink keeps a link taken from a Site only when it is an absolute http
// or https URL with a host; anything else (javascript:, data:, relative or
// scheme-relative) becomes "#". The templates escape what it returns.
func siteLink(s string) string {
	rest, ok := cutPrefixFold(s, "https://")
	if !ok {
		rest, ok = cutPrefixFold(s, "http://")
	}
	if !ok || rest == "" || strings.ContainsAny(rest[:1], "/\\") {
		return "#"
	}
	return s
}

// siteURL is siteLink escaped for an href in hand-written markup.
func siteURL(s string) string { return esc(siteLink(s)) }

// cutPrefixFold is strings.CutPrefix, ignoring ASCII case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}
