package merge

import (
	"cmp"
	"fmt"
	"slices"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	bp "mangabookmark/backend/phonesync/backuppb"
)

// Render assembles a Backup from items: live categories by order, each
// manga with its chapters (by sourceOrder, then url) and its category
// references turned back into order values, then the settings and the
// unknown fields. A tombstoned category is left out, and so are manga
// references to it; a chapter whose manga is not among items is left out.
func Render(msgs bp.Messages, items []*Item) (*dynamicpb.Message, error) {
	b := bp.New(msgs.Backup)
	type cat struct {
		key   string
		order int64
		m     protoreflect.Message
	}
	var cats []cat
	for _, it := range items {
		if it.Kind != KindCategory || it.Deleted {
			continue
		}
		c, err := bp.Unmarshal(msgs.Category, it.Payload)
		if err != nil {
			return nil, fmt.Errorf("merge: render category: %w", err)
		}
		cats = append(cats, cat{it.Key, bp.Int(c, "order"), c})
	}
	slices.SortStableFunc(cats, func(a, b cat) int { return cmp.Compare(a.order, b.order) })
	keyToOrder := make(map[string]int64, len(cats))
	for _, c := range cats {
		keyToOrder[c.key] = c.order
		bp.Append(b, "backup_categories", c.m)
	}

	type chapter struct {
		order int64
		url   string
		m     protoreflect.Message
	}
	chapters := map[string][]chapter{}
	for _, it := range items {
		if it.Kind != KindChapter {
			continue
		}
		c, err := bp.Unmarshal(msgs.Chapter, it.Payload)
		if err != nil {
			return nil, fmt.Errorf("merge: render chapter: %w", err)
		}
		chapters[it.Parent] = append(chapters[it.Parent], chapter{bp.Int(c, "source_order"), bp.String(c, "url"), c})
	}
	for _, it := range items {
		if it.Kind != KindManga {
			continue
		}
		m, err := bp.Unmarshal(msgs.Manga, it.Payload)
		if err != nil {
			return nil, fmt.Errorf("merge: render manga: %w", err)
		}
		var orders []int64
		for _, ref := range it.Refs {
			if o, ok := keyToOrder[ref]; ok {
				orders = append(orders, o)
			}
		}
		bp.SetInts(m, "categories", orders)
		chs := chapters[it.Key]
		slices.SortStableFunc(chs, func(a, b chapter) int {
			return cmp.Or(cmp.Compare(a.order, b.order), cmp.Compare(a.url, b.url))
		})
		for _, c := range chs {
			bp.Append(m, "chapters", c.m)
		}
		bp.Append(b, "backup_manga", m)
	}

	prefGroups := map[string]protoreflect.Message{}
	for _, it := range items {
		var err error
		switch it.Kind {
		case KindSource:
			err = appendPayload(b, "backup_sources", msgs.Source, it)
		case KindPref:
			err = appendPayload(b, "backup_preferences", msgs.Preference, it)
		case KindExtStore:
			err = appendPayload(b, "backup_extension_stores", msgs.ExtensionStore, it)
		case KindSavedSearch:
			err = appendPayload(b, "backup_saved_searches", msgs.SavedSearch, it)
		case KindSourcePref:
			g, ok := prefGroups[it.Parent]
			if !ok {
				g = bp.New(msgs.SourcePreferences)
				bp.Set(g, "source_key", it.Parent)
				prefGroups[it.Parent] = g
				bp.Append(b, "backup_source_preferences", g)
			}
			err = appendPayload(g, "prefs", msgs.Preference, it)
		case KindExtra:
			b.SetUnknown(append(b.GetUnknown(), it.Payload...))
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

func appendPayload(parent protoreflect.Message, field string, md protoreflect.MessageDescriptor, it *Item) error {
	m, err := bp.Unmarshal(md, it.Payload)
	if err != nil {
		return fmt.Errorf("merge: render %s: %w", field, err)
	}
	bp.Append(parent, field, m)
	return nil
}
