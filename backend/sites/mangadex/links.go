package mangadex

import (
	"encoding/json"
	"sort"
	"strings"

	"mangabookmark/backend/sites"
)

// links are the external ids of a manga: those its attributes.links name
// and its own MangaDex id. Of the links, only the keys that name a
// catalogue id are read, as the MangaDex API schema spells them
// (testdata/README.md): al (AniList), mal (MyAnimeList), mu (MangaUpdates)
// and kt (Kitsu). The others (ap, bw, nu, amz, cdj, ebj, raw, engtl) are
// store and reading links, not ids the product links Series on. A links
// value that is not a string, or that sites.NormalizeID refuses, is
// dropped; links that are not an object (null, or the empty list an entry
// without links may carry) give only the manga's own id.
func links(raw json.RawMessage, id string) []sites.ExternalID {
	var l struct { // only the four keys: a huge map costs no memory
		AL  json.RawMessage `json:"al"`
		MAL json.RawMessage `json:"mal"`
		MU  json.RawMessage `json:"mu"`
		KT  json.RawMessage `json:"kt"`
	}
	var ids []sites.ExternalID
	if json.Unmarshal(raw, &l) == nil {
		for _, k := range []struct {
			value json.RawMessage
			kind  string
		}{{l.AL, sites.IDAniList}, {l.MAL, sites.IDMyAnimeList}, {l.MU, sites.IDMangaUpdates}, {l.KT, sites.IDKitsu}} {
			var s string
			if json.Unmarshal(k.value, &s) == nil {
				ids = sites.AddID(ids, k.kind, s)
			}
		}
	}
	return sites.AddID(ids, sites.IDMangaDex, id)
}

// altTitle is one alternative title and its language code.
type altTitle struct{ lang, title string }

// maxAltEntries bounds the altTitles entries read: far more than
// sites.MaxAltTitles, so duplicates and blanks cannot hide real titles,
// and a list of millions is not walked.
const maxAltEntries = 256

// altTitles reads attributes.altTitles, a list of one-language maps
// ([{"ja": "…"}, {"ja-ro": "…"}]), in order; within one map, languages in
// code order. Entries or values of another type are dropped.
func altTitles(raw json.RawMessage) []altTitle {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []altTitle
	for i, entry := range list {
		if i == maxAltEntries {
			break
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(entry, &m) != nil {
			continue
		}
		langs := make([]string, 0, len(m))
		for lang := range m {
			langs = append(langs, lang)
		}
		sort.Strings(langs)
		for _, lang := range langs {
			var t string
			if json.Unmarshal(m[lang], &t) == nil && strings.TrimSpace(t) != "" {
				out = append(out, altTitle{lang: lang, title: t})
			}
		}
	}
	return out
}
