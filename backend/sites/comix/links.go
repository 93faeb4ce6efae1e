package comix

import (
	"encoding/json"
	"html"

	"mangabookmark/backend/sites"
)

// links reads the manga detail's links object, {"al","mal","mu","md","mb"}:
// AniList, MyAnimeList, MangaUpdates, MangaDex and MangaBaka, each null or
// a link to the catalogue's page ("https://www.mangaupdates.com/series/7cyaozt",
// as in the live page; testdata/README.md). A value that is not a string,
// or that sites.NormalizeID refuses (a link on another host among them),
// is dropped; other keys are not read.
func links(raw json.RawMessage) []sites.ExternalID {
	var l struct { // only the five keys: a huge map costs no memory
		AL  json.RawMessage `json:"al"`
		MAL json.RawMessage `json:"mal"`
		MU  json.RawMessage `json:"mu"`
		MD  json.RawMessage `json:"md"`
		MB  json.RawMessage `json:"mb"`
	}
	if json.Unmarshal(raw, &l) != nil {
		return nil
	}
	var ids []sites.ExternalID
	for _, k := range []struct {
		value json.RawMessage
		kind  string
	}{{l.AL, sites.IDAniList}, {l.MAL, sites.IDMyAnimeList}, {l.MU, sites.IDMangaUpdates}, {l.MD, sites.IDMangaDex}, {l.MB, sites.IDMangaBaka}} {
		var s string
		if json.Unmarshal(k.value, &s) == nil {
			ids = sites.AddID(ids, k.kind, s)
		}
	}
	return ids
}

// maxAltEntries bounds the altTitles entries looked at, well past
// sites.MaxAltTitles so blanks and duplicates cannot hide real titles.
const maxAltEntries = 256

// altTitles keeps the detail's altTitles (a list of strings) as f's
// alternative titles, HTML entities decoded as the title's are; entries
// that are not strings are dropped.
func altTitles(f *sites.Facts, raw json.RawMessage) {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return
	}
	for i, entry := range list {
		var t string
		if i == maxAltEntries {
			return
		}
		if json.Unmarshal(entry, &t) == nil && !f.AddAltTitle(html.UnescapeString(t)) {
			return
		}
	}
}
