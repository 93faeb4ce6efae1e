package merge

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	bp "mangabookmark/backend/phonesync/backuppb"
)

// Render assembles a Backup from items (RenderBytes), decoded.
func Render(msgs bp.Messages, items []*Item) (*dynamicpb.Message, error) {
	raw, err := RenderBytes(msgs, items)
	if err != nil {
		return nil, err
	}
	b, err := bp.Unmarshal(msgs.Backup, raw)
	if err != nil {
		return nil, fmt.Errorf("merge: render: %w", err)
	}
	return b, nil
}

// RenderBytes assembles a Backup from items, as its protobuf bytes: live
// categories by order, each manga with its chapters (by sourceOrder, then
// url) and its category references turned back into order values, then
// the settings and the unknown fields. A tombstoned category is left
// out, and so are manga references to it; a chapter whose manga is not
// among items is left out. Each item's payload is written as it is
// stored (Split made it), never decoded: a library of 100,000 chapters
// renders in the time of a copy.
func RenderBytes(msgs bp.Messages, items []*Item) ([]byte, error) {
	num := func(md protoreflect.MessageDescriptor, name string) protowire.Number {
		return md.Fields().ByName(protoreflect.Name(name)).Number()
	}
	var (
		fManga      = num(msgs.Backup, "backup_manga")
		fCategories = num(msgs.Backup, "backup_categories")
		fMangaCats  = num(msgs.Manga, "categories")
		fChapters   = num(msgs.Manga, "chapters")
		fCatOrder   = num(msgs.Category, "order")
		fChOrder    = num(msgs.Chapter, "source_order")
		fChURL      = num(msgs.Chapter, "url")
		fPrefKey    = num(msgs.SourcePreferences, "source_key")
		fPrefs      = num(msgs.SourcePreferences, "prefs")
		fSources    = num(msgs.Backup, "backup_sources")
		fPrefList   = num(msgs.Backup, "backup_preferences")
		fExtStores  = num(msgs.Backup, "backup_extension_stores")
		fSearches   = num(msgs.Backup, "backup_saved_searches")
		fSourcePref = num(msgs.Backup, "backup_source_preferences")
	)

	type cat struct {
		key   string
		order int64
		raw   []byte
	}
	var cats []cat
	size := 0
	for _, it := range items {
		size += len(it.Payload) + 16
		if it.Kind != KindCategory || it.Deleted {
			continue
		}
		order, _, err := scalars(it.Payload, fCatOrder, 0)
		if err != nil {
			return nil, fmt.Errorf("merge: render category: %w", err)
		}
		cats = append(cats, cat{it.Key, order, it.Payload})
	}
	slices.SortStableFunc(cats, func(a, b cat) int { return cmp.Compare(a.order, b.order) })
	keyToOrder := make(map[string]int64, len(cats))
	for _, c := range cats {
		keyToOrder[c.key] = c.order
	}

	type chapter struct {
		order int64
		url   string
		raw   []byte
	}
	chapters := map[string][]chapter{}
	for _, it := range items {
		if it.Kind != KindChapter {
			continue
		}
		order, url, err := scalars(it.Payload, fChOrder, fChURL)
		if err != nil {
			return nil, fmt.Errorf("merge: render chapter: %w", err)
		}
		chapters[it.Parent] = append(chapters[it.Parent], chapter{order, url, it.Payload})
	}

	out := make([]byte, 0, size)
	var manga []byte
	for _, it := range items {
		if it.Kind != KindManga {
			continue
		}
		manga = append(manga[:0], it.Payload...)
		for _, ref := range it.Refs {
			if o, ok := keyToOrder[ref]; ok {
				manga = protowire.AppendTag(manga, fMangaCats, protowire.VarintType)
				manga = protowire.AppendVarint(manga, uint64(o))
			}
		}
		chs := chapters[it.Key]
		slices.SortStableFunc(chs, func(a, b chapter) int {
			return cmp.Or(cmp.Compare(a.order, b.order), cmp.Compare(a.url, b.url))
		})
		for _, c := range chs {
			manga = protowire.AppendTag(manga, fChapters, protowire.BytesType)
			manga = protowire.AppendBytes(manga, c.raw)
		}
		out = protowire.AppendTag(out, fManga, protowire.BytesType)
		out = protowire.AppendBytes(out, manga)
	}
	for _, c := range cats {
		out = protowire.AppendTag(out, fCategories, protowire.BytesType)
		out = protowire.AppendBytes(out, c.raw)
	}

	// The settings, each list in the order of items, the lists by field
	// number; source preferences grouped by source, the groups in the
	// order they first come.
	lists := map[protowire.Number][]byte{}
	var groupOrder []string
	groups := map[string][]byte{}
	var extra []byte
	for _, it := range items {
		var field protowire.Number
		switch it.Kind {
		case KindSource:
			field = fSources
		case KindPref:
			field = fPrefList
		case KindExtStore:
			field = fExtStores
		case KindSavedSearch:
			field = fSearches
		case KindSourcePref:
			g, ok := groups[it.Parent]
			if !ok {
				groupOrder = append(groupOrder, it.Parent)
				g = protowire.AppendTag(g, fPrefKey, protowire.BytesType)
				g = protowire.AppendString(g, it.Parent)
			}
			g = protowire.AppendTag(g, fPrefs, protowire.BytesType)
			groups[it.Parent] = protowire.AppendBytes(g, it.Payload)
			continue
		case KindExtra:
			extra = append(extra, it.Payload...)
			continue
		default:
			continue
		}
		l := protowire.AppendTag(lists[field], field, protowire.BytesType)
		lists[field] = protowire.AppendBytes(l, it.Payload)
	}
	for _, k := range groupOrder {
		l := protowire.AppendTag(lists[fSourcePref], fSourcePref, protowire.BytesType)
		lists[fSourcePref] = protowire.AppendBytes(l, groups[k])
	}
	fields := make([]protowire.Number, 0, len(lists))
	for f := range lists {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	for _, f := range fields {
		out = append(out, lists[f]...)
	}
	return append(out, extra...), nil
}

var errPayload = errors.New("a stored payload does not decode")

// scalars reads, from a message's bytes, the last value of the varint
// field n and of the string field s (0 for none), as a decode would (the
// last one of a repeated scalar wins).
func scalars(b []byte, n, s protowire.Number) (int64, string, error) {
	var v int64
	var str string
	for len(b) > 0 {
		num, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			return 0, "", errPayload
		}
		b = b[k:]
		switch {
		case num == n && typ == protowire.VarintType:
			x, k := protowire.ConsumeVarint(b)
			if k < 0 {
				return 0, "", errPayload
			}
			v, b = int64(x), b[k:]
			continue
		case s != 0 && num == s && typ == protowire.BytesType:
			x, k := protowire.ConsumeBytes(b)
			if k < 0 {
				return 0, "", errPayload
			}
			str, b = string(x), b[k:]
			continue
		}
		k = protowire.ConsumeFieldValue(num, typ, b)
		if k < 0 {
			return 0, "", errPayload
		}
		b = b[k:]
	}
	return v, str, nil
}
