package sitesim

import "strconv"

// Link is one external id a simulated Series' page carries, in the
// canonical form the adapters normalise it to: Kind is "al", "mal", "mu",
// "kt", "md" or "mb"; Value the bare id ("200004", a UUID for MangaDex,
// MangaUpdates' API number for mu: the pages write it as the 7-character
// URL id, backend/muid).
type Link struct {
	Kind, Value string
}

// Which Series carry links, and which share them (see the package doc).
const (
	linkGroups   = 4
	sharedGroup  = 0 // MangaDex k and Comix k share al, mu and md: one story
	oneSideGroup = 1 // MangaDex k names al only, Comix k mu only: nothing shared
	apartGroup   = 2 // both name al, different ones: two stories
	// Group 3 carries no links on either Site.
)

// SharesIDs reports whether Series k on MangaDex and Series k on Comix
// carry the same external ids (the same al, mu and md), so that the Works
// rule links them: true for every k divisible by four.
func SharesIDs(k int) bool { return k%linkGroups == sharedGroup }

// Links are the external ids Series k of site carries in its page, as
// the adapters read them: MangaDex's attributes.links (al, mal, mu, kt)
// and its own id, Comix's links (al, mal, mu, md, mb). The other Sites
// carry none (only MangaDex's own id on MangaDex).
func Links(site string, k int) []Link {
	al := func(n int) Link { return Link{"al", strconv.Itoa(200000 + n)} }
	mu := Link{"mu", strconv.FormatInt(muBase+int64(k), 10)} // the API number; pages write muURLID
	switch site {
	case MangaDex:
		md := Link{"md", seriesID(MangaDex, k)}
		switch k % linkGroups {
		case sharedGroup:
			return []Link{al(k), {"mal", strconv.Itoa(300000 + k)}, mu, {"kt", strconv.Itoa(50000 + k)}, md}
		case oneSideGroup, apartGroup:
			return []Link{al(k), md}
		}
		return []Link{md}
	case Comix:
		switch k % linkGroups {
		case sharedGroup:
			return []Link{al(k), mu, {"md", seriesID(MangaDex, k)}, {"mb", strconv.Itoa(700000 + k)}}
		case oneSideGroup:
			return []Link{mu, {"mb", strconv.Itoa(700000 + k)}}
		case apartGroup:
			return []Link{al(k + 500000)}
		}
	}
	return nil
}

// muBase is the smallest 7-character base-36 number ("1000000"): the
// simulated MangaUpdates ids are URL ids like the live ones since 2022.
const muBase = 2176782336

// pageValue is how a page writes a Link: the mu API number as the URL id
// in base 36 (the form MangaDex's and Comix's links carry), the rest as is.
func pageValue(l Link) string {
	if l.Kind == "mu" {
		n, _ := strconv.ParseInt(l.Value, 10, 64)
		return strconv.FormatInt(n, 36)
	}
	return l.Value
}

// mangadexLinks is a manga entity's attributes.links: bare ids keyed as
// the MangaDex API keys them, beside a store link the adapter ignores.
func mangadexLinks(k int) map[string]string {
	out := map[string]string{}
	for _, l := range Links(MangaDex, k) {
		if l.Kind != "md" { // the manga's own id is not among its links
			out[l.Kind] = pageValue(l)
		}
	}
	if len(out) > 0 {
		out["amz"] = "https://store.invalid/dp/" + strconv.Itoa(k)
	}
	return out
}

// comixLinks is the title page detail's links: every one of the five keys,
// null or a full link to the catalogue's page, as the live page writes it.
func comixLinks(k int) map[string]any {
	out := map[string]any{"al": nil, "mal": nil, "mu": nil, "md": nil, "mb": nil}
	page := map[string]string{
		"al": "https://anilist.co/manga/", "mal": "https://myanimelist.net/manga/",
		"mu": "https://www.mangaupdates.com/series/", "md": "https://mangadex.org/title/", "mb": "https://mangabaka.org/",
	}
	for _, l := range Links(Comix, k) {
		out[l.Kind] = page[l.Kind] + pageValue(l)
	}
	return out
}

// comixAltTitles names the Series as MangaDex titles the same story, when
// the two share ids, so title suggestions have a match to find too.
func comixAltTitles(k int) []string {
	if SharesIDs(k) {
		return []string{title(MangaDex, k)}
	}
	return []string{}
}
