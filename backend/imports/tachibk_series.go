package imports

import (
	"mangabookmark/backend/imports/tachibk"
	"mangabookmark/backend/sites"
)

// TachibkSources maps a backup's source ids to their names, as
// DecodeTachibk does (the backup's source list first, then the legacy
// one).
func TachibkSources(list []tachibk.Source) map[int64]string { return sourceNames(list) }

// TachibkSeries is the Series of one of reg's Sites a backup manga
// stands for (its source by name, else by a known id; its URL joined to
// the Site's host), as DecodeTachibk maps it, or false.
func TachibkSeries(reg *sites.Registry, sourceName string, source int64, mangaURL string) (sites.Ref, bool) {
	site := siteForSource(reg, sourceName, source)
	if site == nil || mangaURL == "" {
		return sites.Ref{}, false
	}
	ref, err := reg.Canonicalize(sourceURL(site, mangaURL))
	if err != nil || ref.Site != site.Name {
		return sites.Ref{}, false
	}
	return ref, true
}
