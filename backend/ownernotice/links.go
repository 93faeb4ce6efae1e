package ownernotice

import "net/url"

// PagePath is the Owner's web page a notice of that kind links to, below
// PUBLIC_BASE_URL: the status page for the sidecar (it concerns every
// browser Lane), the Lane's own page for the rest. A browser opens it with
// the Owner's session cookie, where the JSON API would answer 401.
func PagePath(kind, site string) string {
	if kind == KindSidecarDown || site == "" {
		return "/admin"
	}
	return "/admin/lanes/" + url.PathEscape(site)
}
