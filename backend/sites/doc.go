// Package sites owns what it takes to read one Series on one Site: the Site
// type with its pace (Rest and Gap), the Adapter contract each Site fills,
// URL canonicalisation to (site, series_id) (Registry.Canonicalize, which
// never fetches), SITE_ORIGINS overrides (ParseOrigins, ApplyOrigins),
// outcome classification shared by both fetch routes (ClassifyResponse,
// ClassifyError), chapter-number helpers, and the plain HTTPS route
// (NewPlain). The six concrete adapters live in sub-packages;
// backend/sites/registry lists them in a fixed order, and
// backend/sites/sitestest holds a scripted route and adapter for tests.
//
// A read goes: the Lane calls Site.Adapter.Read with the Site's route; the
// adapter builds Requests, runs each through Fetch (route, then
// ClassifyResponse and CheckType), parses the body, and returns a Result
// whose Outcome is one of the words in outcome.go.
package sites
