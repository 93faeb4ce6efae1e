package imports

import (
	"slices"
	"strconv"
	"strings"

	"mangabookmark/backend/imports/tachibk"
	"mangabookmark/backend/sites"
)

// trackerKinds are the external id kinds of the trackers a backup's
// tracking rows name, by Mihon's tracker id (syncId).
var trackerKinds = map[int]string{
	tachibk.SyncMyAnimeList:  sites.IDMyAnimeList,
	tachibk.SyncAniList:      sites.IDAniList,
	tachibk.SyncKitsu:        sites.IDKitsu,
	tachibk.SyncMangaUpdates: sites.IDMangaUpdates,
	tachibk.SyncMangaBaka:    sites.IDMangaBaka,
}

// trackedIDs are the external ids a manga's tracking rows name (the
// reader keeps one row per tracker). The media id decides, else the
// tracking URL, except for MangaUpdates, whose URL (/series/{base-36 id})
// is tried first: it is the URL id the Sites' own links give, and Mihon's
// media id the API's number it writes in base 36; sites.NormalizeID
// (backend/muid) reads both into the one canonical mu, so either gives
// the same id, and the URL decides only when a crafted file makes them
// differ. A value NormalizeID refuses (a link on another host, a control
// character) is dropped, never an error.
func trackedIDs(rows []tachibk.Tracking) []sites.ExternalID {
	var ids []sites.ExternalID
	for _, t := range rows {
		kind, ok := trackerKinds[t.SyncID]
		if !ok {
			continue
		}
		media := ""
		if t.MediaID > 0 {
			media = strconv.FormatInt(t.MediaID, 10)
		}
		tries := []string{media, t.URL}
		if kind == sites.IDMangaUpdates {
			tries = []string{t.URL, media}
		}
		for _, raw := range tries {
			if id, ok := sites.NormalizeID(kind, raw); ok {
				ids = append(ids, id)
				break
			}
		}
	}
	return ids
}

// mergedMembers are the canonical Series URLs of a merged entry's members
// on the Sites (a source maps as the manga's own does, siteForSource), in
// the backup's order, each once. Members on other sources (the merge
// itself among them) and URLs that name no Series are left out.
func mergedMembers(reg *sites.Registry, names map[int64]string, refs []tachibk.Reference) []sites.Ref {
	var out []sites.Ref
	for _, r := range refs {
		site := siteForSource(reg, names[r.Source], r.Source)
		if site == nil || strings.TrimSpace(r.URL) == "" {
			continue
		}
		ref, err := reg.Canonicalize(sourceURL(site, r.URL))
		if err != nil || slices.Contains(out, ref) {
			continue
		}
		out = append(out, ref)
	}
	return out
}

// suggest are the URLs of members, less the Series own names (when it
// names one).
func suggest(reg *sites.Registry, own string, members []sites.Ref) []string {
	self, _ := reg.Canonicalize(own)
	var out []string
	for _, m := range members {
		if m != self {
			out = append(out, m.URL)
		}
	}
	return out
}
