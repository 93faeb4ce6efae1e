package userscript

import (
	_ "embed"
	"net/url"
	"strings"
)

// Source is the userscript template as committed.
//
//go:embed mangabookmark.user.js
var Source []byte

// Placeholders Render replaces.
const (
	baseURLMark = "__MB_BASE_URL__"
	hostMark    = "__MB_CONNECT_HOST__"
)

// Path is where the backend serves the script.
const Path = "/userscript/mangabookmark.user.js"

// Render fills the template for a deployment whose public base URL is
// baseURL (PUBLIC_BASE_URL, no trailing slash needed).
func Render(tpl []byte, baseURL string) []byte {
	base := sanitize(strings.TrimRight(baseURL, "/"))
	host := "localhost"
	if u, err := url.Parse(base); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	out := strings.ReplaceAll(string(tpl), baseURLMark, base)
	out = strings.ReplaceAll(out, hostMark, host)
	return []byte(out)
}

// sanitize keeps the URL from breaking out of the metadata line or the
// JavaScript string it lands in.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '"', '\'', '\\', '`', '<', '>', ' ', '\t':
			return -1
		}
		return r
	}, s)
}
