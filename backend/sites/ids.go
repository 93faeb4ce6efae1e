package sites

// ExternalID is a Series' id in a public catalogue, as the Site's own page
// or API hands it over (MangaDex's attributes.links, Comix's title-page
// links) or as a backup's tracking row names it. Two Series that share one
// exact ExternalID are the same story (docs/CONTEXT.md, Work).
type ExternalID struct {
	Kind  string // one of the IDKinds
	Value string // the catalogue's own id, normalised by NormalizeID
}

// The kinds of external id, in the order pages and the API list them.
const (
	IDAniList      = "al"
	IDMyAnimeList  = "mal"
	IDMangaUpdates = "mu"
	IDKitsu        = "kt"
	IDMangaDex     = "md"
	IDMangaBaka    = "mb"
)

// IDKinds are the external id kinds the product links on.
var IDKinds = []string{IDAniList, IDMyAnimeList, IDMangaUpdates, IDKitsu, IDMangaDex, IDMangaBaka}

// IsIDKind reports whether k is one of IDKinds.
func IsIDKind(k string) bool {
	for _, x := range IDKinds {
		if x == k {
			return true
		}
	}
	return false
}
