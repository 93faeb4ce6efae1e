package browser

import (
	"net/url"

	"mangabookmark/backend/sites"
)

// onLanded rebuilds the in-page data URL on the origin of the document the
// route landed on, when that document is on the Site and the data URL is
// too: a Site whose bare host redirects to www (natomanga) would otherwise
// have the page fetch the bare host cross-origin, which fails on every
// read. The path and query stay the adapter's. Anything else (a document
// that left the Site, a data URL off the Site, an unparseable URL) leaves
// data as it is, for stayed and the Site's own answer to judge.
func onLanded(req sites.Request, docURL string) string {
	d, err := url.Parse(docURL)
	if err != nil || (d.Scheme != "http" && d.Scheme != "https") || d.Host == "" || d.User != nil {
		return req.Data
	}
	u, err := url.Parse(req.Data)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return req.Data
	}
	if req.Site == nil || !req.Site.OwnsHost(d.Host) || !req.Site.OwnsHost(u.Host) {
		return req.Data
	}
	if u.Scheme == d.Scheme && u.Host == d.Host {
		return req.Data
	}
	u.Scheme, u.Host = d.Scheme, d.Host
	return u.String()
}
