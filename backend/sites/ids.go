package sites

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mangabookmark/backend/muid"
	"mangabookmark/backend/safetext"
)

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
	IDAniList            = "al"
	IDMyAnimeList        = "mal"
	IDMangaUpdates       = muid.Kind       // the API number (backend/muid)
	IDMangaUpdatesLegacy = muid.KindLegacy // a pre-2022 id, never converted
	IDKitsu              = "kt"
	IDMangaDex           = "md"
	IDMangaBaka          = "mb"
)

// IDKinds are the external id kinds the product links on.
var IDKinds = []string{IDAniList, IDMyAnimeList, IDMangaUpdates, IDMangaUpdatesLegacy, IDKitsu, IDMangaDex, IDMangaBaka}

// IsIDKind reports whether k is one of IDKinds.
func IsIDKind(k string) bool {
	for _, x := range IDKinds {
		if x == k {
			return true
		}
	}
	return false
}

// MaxIDInput is the longest raw id or link NormalizeID looks at, in bytes;
// anything longer is refused before it is parsed.
const MaxIDInput = 512

// idHosts are the hosts whose links name an id of each kind, without
// "www.": a link on any other host is refused, so a page cannot pass off
// another site's URL as a catalogue id.
var idHosts = map[string][]string{
	IDAniList:            {"anilist.co"},
	IDMyAnimeList:        {"myanimelist.net"},
	IDMangaUpdates:       {"mangaupdates.com"},
	IDMangaUpdatesLegacy: {"mangaupdates.com"},
	IDKitsu:              {"kitsu.app", "kitsu.io"},
	IDMangaDex:           {"mangadex.org"},
	IDMangaBaka:          {"mangabaka.org", "mangabaka.dev"},
}

var (
	numericIDRe = regexp.MustCompile(`^[0-9]{1,12}$`)
	mdIDRe      = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
)

// NormalizeID turns what a page, an API or a backup carries for an id of
// kind into its canonical ExternalID: a bare id ("30002") or a link to the
// catalogue's own page ("https://anilist.co/manga/30002/Frieren").
//
//   - AniList, MyAnimeList, Kitsu and MangaBaka ids are positive numbers,
//     written without leading zeros. A Kitsu slug (MangaDex allows one) is
//     refused: only the number links.
//   - MangaUpdates ids go through muid.Parse, the one reader of them:
//     the URL id (/series/7cyaozt, or bare) and the API number become
//     kind mu with the API number; a pre-2022 id (series.html?id=157722,
//     or digits up to 200591) becomes kind mu_legacy, whichever of the
//     two kinds was asked. The answer's Kind is the canonical one.
//   - MangaDex ids are UUIDs, lower-cased.
//
// Anything else is refused (false): an unknown kind, an input longer than
// MaxIDInput, a control or bidi character, a link on another host or with
// credentials, a path that names no id, zero, or a value of the wrong shape.
func NormalizeID(kind, raw string) (ExternalID, bool) {
	if !IsIDKind(kind) || len(raw) > MaxIDInput || !utf8.ValidString(raw) {
		return ExternalID{}, false
	}
	for _, r := range raw {
		if safetext.IsControl(r) || safetext.IsBidiControl(r) {
			return ExternalID{}, false
		}
	}
	v := strings.TrimSpace(raw)
	legacyLink := false
	if strings.Contains(v, "/") {
		var ok bool
		if v, legacyLink, ok = idFromLink(kind, v); !ok {
			return ExternalID{}, false
		}
	}
	v = strings.ToLower(v)
	switch kind {
	case IDMangaUpdates, IDMangaUpdatesLegacy:
		k, val, err := muid.Parse(v, legacyLink || kind == IDMangaUpdatesLegacy)
		if err != nil {
			return ExternalID{}, false
		}
		return ExternalID{Kind: k, Value: val}, true
	case IDMangaDex:
		if !mdIDRe.MatchString(v) || strings.Trim(v, "0-") == "" {
			return ExternalID{}, false
		}
	default:
		if !numericIDRe.MatchString(v) {
			return ExternalID{}, false
		}
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			return ExternalID{}, false
		}
		v = strconv.FormatUint(n, 10)
	}
	return ExternalID{Kind: kind, Value: v}, true
}

// idFromLink is the id segment of a link to kind's catalogue, not yet
// checked for shape: anilist.co/manga/{id}, myanimelist.net/manga/{id},
// kitsu.app/manga/{id} (also kitsu.io and its api/edge/manga/{id}),
// mangaupdates.com/series/{id} or series.html?id={id},
// mangadex.org/title/{id} (or manga/{id}), mangabaka.org/{id} (or
// series/{id}). A slug after the id is ignored. legacy is true for
// MangaUpdates' old series.html?id= links, which name a pre-2022 id.
func idFromLink(kind, link string) (id string, legacy, ok bool) {
	if strings.HasPrefix(link, "//") {
		link = "https:" + link
	}
	u, err := url.Parse(link)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil || u.Port() != "" {
		return "", false, false
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	if !slices.Contains(idHosts[kind], host) {
		return "", false, false
	}
	p := PathSegments(u)
	if kind == IDMangaUpdates || kind == IDMangaUpdatesLegacy {
		if len(p) == 1 && strings.EqualFold(p[0], "series.html") {
			return u.Query().Get("id"), true, true
		}
		id, ok = segmentAfter(p, "series")
		return id, false, ok
	}
	id, ok = idInPath(kind, p)
	return id, false, ok
}

// idInPath is the id segment of a catalogue link's path, for every kind
// but MangaUpdates'.
func idInPath(kind string, p []string) (string, bool) {
	switch kind {
	case IDMangaDex:
		if id, ok := segmentAfter(p, "title"); ok {
			return id, true
		}
		return segmentAfter(p, "manga")
	case IDMangaBaka:
		if id, ok := segmentAfter(p, "series"); ok {
			return id, true
		}
		if len(p) >= 1 {
			return p[0], true
		}
		return "", false
	case IDKitsu:
		if len(p) >= 4 && p[0] == "api" && p[1] == "edge" {
			p = p[2:]
		}
		return segmentAfter(p, "manga")
	}
	return segmentAfter(p, "manga") // AniList, MyAnimeList
}

// segmentAfter is the path segment right after a first segment word.
func segmentAfter(p []string, word string) (string, bool) {
	if len(p) >= 2 && strings.EqualFold(p[0], word) {
		return p[1], true
	}
	return "", false
}

// AddID appends the id of kind that raw names (NormalizeID) to ids, unless
// it is refused or ids already hold an id of its canonical kind: a page
// names one Series, so the first id of each kind stands and ids never grow
// past len(IDKinds).
func AddID(ids []ExternalID, kind, raw string) []ExternalID {
	id, ok := NormalizeID(kind, raw)
	if !ok {
		return ids
	}
	for _, have := range ids {
		if have.Kind == id.Kind {
			return ids
		}
	}
	return append(ids, id)
}
