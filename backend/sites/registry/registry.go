// Package registry lists the six real Sites in their fixed order, each with
// its hosts and mirrors, route, pace and adapter, and applies SITE_ORIGINS.
//
// Order: the three browser Sites (kagane, comix, natomanga), then the three
// plain ones (mangadex, weebcentral, mangapill), as SPEC lists them. Every
// table and list of Sites follows this order.
package registry

import (
	"fmt"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/comix"
	"mangabookmark/backend/sites/kagane"
	"mangabookmark/backend/sites/mangadex"
	"mangabookmark/backend/sites/mangapill"
	"mangabookmark/backend/sites/natomanga"
	"mangabookmark/backend/sites/weebcentral"
)

// Sites builds fresh entries for the six Sites, in registry order. The
// first host of each is its public origin.
func Sites() []*sites.Site {
	entry := func(name string, browser bool, a sites.Adapter, hosts ...string) *sites.Site {
		return &sites.Site{Name: name, Hosts: hosts, Browser: browser, Adapter: a,
			Rest: sites.DefaultRest, Gap: sites.DefaultGap, Origin: "https://" + hosts[0]}
	}
	list := []*sites.Site{
		entry("kagane", true, kagane.Adapter{}, "kagane.to", "kagane.org"),
		entry("comix", true, comix.Adapter{}, "comix.to", "comix.ws"),
		entry("natomanga", true, natomanga.Adapter{}, "www.natomanga.com", "nelomanga.net", "manganato.gg", "mangakakalot.gg", "mangakakalove.com"),
		entry("mangadex", false, mangadex.Adapter{}, "mangadex.org"),
		entry("weebcentral", false, weebcentral.Adapter{}, "weebcentral.com"),
		entry("mangapill", false, mangapill.Adapter{}, "mangapill.com"),
	}
	for _, s := range list {
		s.SourceNames = sourceNames[s.Name]
		s.SourceIDs = sourceIDs[s.Name]
	}
	return list
}

// sourceNames are the source names Mihon/Tachiyomi extensions give each
// Site (backups name their sources so), besides the Site's own name.
var sourceNames = map[string][]string{
	"kagane":      {"Kagane"},
	"comix":       {"Comix"},
	"natomanga":   {"NatoManga", "Manganato", "MangaNato", "Mangakakalot", "Nelomanga"},
	"mangadex":    {"MangaDex"},
	"weebcentral": {"Weeb Central", "WeebCentral"},
	"mangapill":   {"MangaPill", "Mangapill"},
}

// sourceIDs are the source ids known for a Site: MangaDex's English
// source in Mihon's extensions.
var sourceIDs = map[string][]int64{
	"mangadex": {2499283573021220255},
}

// New builds the registry of the six Sites and applies origin overrides
// (name to origin, as sites.ParseOrigins returns; nil for none).
func New(origins map[string]string) (*sites.Registry, error) {
	r, err := sites.NewRegistry(Sites())
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	if err := r.ApplyOrigins(origins); err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	return r, nil
}

// FromEnv builds the registry from a raw SITE_ORIGINS value ("" for none).
// A malformed value or an unknown Site name is an error naming the entry.
func FromEnv(siteOrigins string) (*sites.Registry, error) {
	o, err := sites.ParseOrigins(siteOrigins)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	return New(o)
}
