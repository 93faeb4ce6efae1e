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
// history's time.
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
	names := map[int64]string{}
	for _, s := range b.Sources {
		names[s.ID] = s.Name
	}
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
		var err error
		switch {
		case site == nil && name == "":
			err = p.skip(label, fmt.Sprintf("source %d is not one of the Sites this server reads (%s)", m.Source, strings.Join(reg.Names(), ", ")))
		case site == nil:
			err = p.skip(label, fmt.Sprintf("source %q is not one of the Sites this server reads (%s)", name, strings.Join(reg.Names(), ", ")))
		case strings.TrimSpace(m.URL) == "":
			err = p.skip(label, "the backup gives no URL for it")
		default:
			err = p.add(mangaItem(label, site, m))
		}
		if err != nil {
			return nil, err
		}
	}
	return p, nil
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
	u := strings.TrimSpace(m.URL)
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		u = "https://" + site.Hosts[0] + "/" + strings.TrimPrefix(u, "/")
	}
	it := Item{Label: label, URL: u}
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
