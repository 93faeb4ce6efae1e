package imports

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/imports/tachibk"
	"mangabookmark/backend/sites"
)

// DecodeTachibk reads a Mihon/Tachiyomi backup and maps each library
// manga to a Series URL of one of reg's Sites: its source by name
// (case-insensitive, the Site's name or one of its SourceNames), else by a
// known source id; the URL is the Site's public origin joined with the
// manga's URL. Manga outside the library (favorite false) are left out;
// every other manga that cannot be mapped is named in Unsupported with the
// reason. Progress is the highest chapter number read, read_at its
// history's time. Its tracking rows become the Item's IDs, and its
// TachiyomiSY merged references on the Sites become Suggest
// (decode_tachibk_ids.go).
func DecodeTachibk(r io.Reader, reg *sites.Registry) (*Parsed, error) {
	b, err := tachibk.Read(r, tachibk.Limits{MaxManga: MaxItems})
	var te *tachibk.Error
	switch {
	case err == nil:
	case !errors.As(err, &te):
		return nil, errorf(ErrUnreadable, "this is not a readable Mihon/Tachiyomi backup (.tachibk)")
	case errors.Is(te.Kind, tachibk.ErrTooLarge):
		return nil, errorf(ErrTooLarge, "the backup is too large: %s", te.Reason)
	default:
		return nil, errorf(ErrUnreadable, "this is not a readable Mihon/Tachiyomi backup (.tachibk): %s", te.Reason)
	}
	return ParseTachibk(b, reg)
}

// ParseTachibk is DecodeTachibk of a backup already read (phone sync
// reads the library once and maps it here).
func ParseTachibk(b *tachibk.Backup, reg *sites.Registry) (*Parsed, error) {
	names := sourceNames(b.Sources)
	p := &Parsed{Kind: KindTachibk}
	for _, m := range b.Manga {
		if !m.Favorite {
			continue
		}
		name := names[m.Source]
		label := strings.TrimSpace(m.Title)
		if label == "" {
			label = m.URL
		}
		if name != "" {
			label = name + ": " + label
		}
		site := siteForSource(reg, name, m.Source)
		members := mergedMembers(reg, names, m.Merged)
		var err error
		switch {
		case site == nil && len(members) > 0:
			// A TachiyomiSY merged entry (its own source is the merge):
			// its first member on a Site stands for it, the others are
			// suggested.
			own := members[0].URL
			err = p.add(Item{Label: label, URL: own, IDs: trackedIDs(m.Tracking), Suggest: suggest(reg, own, members), Title: m.Title})
		case site == nil && name == "":
			err = p.skip(label, fmt.Sprintf("source %d is not one of the Sites this server reads (%s)", m.Source, strings.Join(reg.Names(), ", ")))
		case site == nil:
			err = p.skip(label, fmt.Sprintf("source %q is not one of the Sites this server reads (%s)", name, strings.Join(reg.Names(), ", ")))
		case strings.TrimSpace(m.URL) == "":
			err = p.skip(label, "the backup gives no URL for it")
		default:
			it := mangaItem(label, site, m)
			it.IDs, it.Suggest, it.Title = trackedIDs(m.Tracking), suggest(reg, it.URL, members), m.Title
			err = p.add(it)
		}
		if err != nil {
			return nil, err
		}
	}
	return p, nil
}

// sourceNames maps source ids to their names: from the backup's source
// list, and for ids it does not name, from the legacy list older
// Tachiyomi backups carry instead, so their MangaPill and WeebCentral
// manga map by name as a current backup's do.
func sourceNames(list []tachibk.Source) map[int64]string {
	names := map[int64]string{}
	for _, legacy := range []bool{false, true} {
		for _, s := range list {
			if s.Legacy == legacy && names[s.ID] == "" {
				names[s.ID] = s.Name
			}
		}
	}
	return names
}

// siteForSource finds the Site a backup source stands for.
func siteForSource(reg *sites.Registry, name string, id int64) *sites.Site {
	name = strings.TrimSpace(name)
	for _, s := range reg.All() {
		if name != "" && strings.EqualFold(name, s.Name) {
			return s
		}
		for _, alias := range s.SourceNames {
			if name != "" && strings.EqualFold(name, alias) {
				return s
			}
		}
	}
	for _, s := range reg.All() {
		for _, known := range s.SourceIDs {
			if known == id {
				return s
			}
		}
	}
	return nil
}

// mangaItem is the Item of a mapped manga.
func mangaItem(label string, site *sites.Site, m tachibk.Manga) Item {
	it := Item{Label: label, URL: sourceURL(site, m.URL)}
	if m.Read.Number > 0 {
		if n, ok := sites.ParseNumber(strconv.FormatFloat(float64(m.Read.Number), 'f', -1, 32)); ok {
			it.Number = n
			if m.ReadAt > 0 {
				t := time.UnixMilli(m.ReadAt).UTC()
				it.ReadAt = &t
			}
		}
	}
	return it
}

// sourceURL is the Series URL of a manga's URL on site's source: the URL
// itself when absolute, else joined to the Site's public host.
func sourceURL(site *sites.Site, raw string) string {
	u := strings.TrimSpace(raw)
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		u = "https://" + site.Hosts[0] + "/" + strings.TrimPrefix(u, "/")
	}
	return u
}
