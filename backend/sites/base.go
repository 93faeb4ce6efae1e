package sites

import (
	"net/url"
	"strings"
)

// Base is where the Site's pages are fetched from: Origin, or https:// and
// the first host when no Origin is set.
func (s *Site) Base() string {
	if s.Origin != "" {
		return strings.TrimSuffix(s.Origin, "/")
	}
	if len(s.Hosts) > 0 {
		return "https://" + s.Hosts[0]
	}
	return ""
}

// Resolve makes ref absolute against base and returns it when it is an
// http(s) URL, else "". Adapters use it for chapter and cover links so a
// page cannot hand back javascript: or data: URLs.
func Resolve(base, ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" || len(ref) > MaxURLLength {
		return ""
	}
	b, err := url.Parse(base)
	if err != nil {
		return ""
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	u := b.ResolveReference(r)
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return ""
	}
	return u.String()
}

// PathSegments splits a URL path into its non-empty segments.
func PathSegments(u *url.URL) []string {
	var out []string
	for _, p := range strings.Split(u.Path, "/") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Segment escapes a Site-given id or slug as one path segment for a link
// the adapter builds. The empty string and the dot segments ("." and "..")
// give false: URL resolution would turn them into a link to the page above
// instead of the id's own.
func Segment(s string) (string, bool) {
	if s == "" || s == "." || s == ".." {
		return "", false
	}
	return url.PathEscape(s), true
}
