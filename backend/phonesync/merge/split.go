package merge

import (
	"errors"
	"fmt"
	"strconv"

	"google.golang.org/protobuf/reflect/protoreflect"

	bp "mangabookmark/backend/phonesync/backuppb"
)

// keySep joins a manga's key and a chapter's url (and a source's key and
// a preference's key), as the SyncYomi server does: a byte no url holds.
const keySep = "\x1f"

// ExtraKey is the key of the one KindExtra item.
const ExtraKey = "extra"

// MangaKey is a manga's key: source|url.
func MangaKey(source int64, url string) string {
	return strconv.FormatInt(source, 10) + "|" + url
}

// ChapterKey is a chapter's key: its manga's key and its url.
func ChapterKey(mangaKey, url string) string { return mangaKey + keySep + url }

// CategoryKey is a category's key: uid:<uid>, or name:<name> when its uid
// is 0 (an app that does not number categories).
func CategoryKey(c protoreflect.Message) string {
	if uid := bp.Int(c, "uid"); uid != 0 {
		return "uid:" + strconv.FormatInt(uid, 10)
	}
	return "name:" + bp.String(c, "name")
}

// ErrBadBackup wraps why an upload is not a backup the merge can take.
var ErrBadBackup = errors.New("merge: not a backup")

// Split turns a Backup into items, one per manga (without chapters and
// categories), chapter, category and setting, and the Backup's unknown
// fields as one more. An item without a url is skipped, as the SyncYomi
// server skips it. Duplicates keep one (Dedupe).
func Split(b protoreflect.Message) ([]*Item, error) {
	var items []*Item
	add := func(it *Item, m protoreflect.Message) error {
		p, err := bp.Marshal(m.Interface())
		if err != nil {
			return fmt.Errorf("%w: %w", ErrBadBackup, err)
		}
		it.Payload = p
		items = append(items, it)
		return nil
	}

	orderToKey := map[int64]string{}
	for _, c := range bp.List(b, "backup_categories") {
		key := CategoryKey(c)
		orderToKey[bp.Int(c, "order")] = key
		if err := add(&Item{Kind: KindCategory, Key: key, Name: bp.String(c, "name"),
			Version: bp.Int(c, "version"), Modified: bp.Int(c, "last_modified_at")}, c); err != nil {
			return nil, err
		}
	}

	for _, m := range bp.List(b, "backup_manga") {
		url := bp.String(m, "url")
		if url == "" {
			continue
		}
		key := MangaKey(bp.Int(m, "source"), url)
		var refs []string
		for _, order := range bp.Ints(m, "categories") {
			if k, ok := orderToKey[order]; ok {
				refs = append(refs, k)
			}
		}
		chapters := bp.List(m, "chapters")
		stripped := bp.New(m.Descriptor())
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			if n := fd.Name(); n != "chapters" && n != "categories" {
				stripped.Set(fd, v)
			}
			return true
		})
		stripped.SetUnknown(m.GetUnknown())
		if err := add(&Item{Kind: KindManga, Key: key, Refs: refs,
			Version: bp.Int(m, "version"), Modified: bp.Int(m, "last_modified_at")}, stripped); err != nil {
			return nil, err
		}
		for _, ch := range chapters {
			u := bp.String(ch, "url")
			if u == "" {
				continue
			}
			if err := add(&Item{Kind: KindChapter, Key: ChapterKey(key, u), Parent: key,
				Version: bp.Int(ch, "version"), Modified: bp.Int(ch, "last_modified_at")}, ch); err != nil {
				return nil, err
			}
		}
	}

	for _, s := range bp.List(b, "backup_sources") {
		if err := add(&Item{Kind: KindSource, Key: strconv.FormatInt(bp.Int(s, "source_id"), 10)}, s); err != nil {
			return nil, err
		}
	}
	for _, p := range bp.List(b, "backup_preferences") {
		if err := add(&Item{Kind: KindPref, Key: bp.String(p, "key")}, p); err != nil {
			return nil, err
		}
	}
	for _, sp := range bp.List(b, "backup_source_preferences") {
		sk := bp.String(sp, "source_key")
		for _, p := range bp.List(sp, "prefs") {
			if err := add(&Item{Kind: KindSourcePref, Key: sk + keySep + bp.String(p, "key"), Parent: sk}, p); err != nil {
				return nil, err
			}
		}
	}
	for _, e := range bp.List(b, "backup_extension_stores") {
		if err := add(&Item{Kind: KindExtStore, Key: bp.String(e, "index_url")}, e); err != nil {
			return nil, err
		}
	}
	for _, s := range bp.List(b, "backup_saved_searches") {
		key := bp.String(s, "name") + "|" + strconv.FormatInt(bp.Int(s, "source"), 10)
		if err := add(&Item{Kind: KindSavedSearch, Key: key}, s); err != nil {
			return nil, err
		}
	}
	if extra := b.GetUnknown(); len(extra) > 0 {
		items = append(items, &Item{Kind: KindExtra, Key: ExtraKey, Payload: append([]byte(nil), extra...)})
	}
	return Dedupe(items), nil
}

// Dedupe keeps one item per kind and key, as the SyncYomi server does: the
// highest version, then the newest lastModifiedAt, then the later one.
// The order of first appearance is kept.
func Dedupe(items []*Item) []*Item {
	type id struct {
		kind Kind
		key  string
	}
	index := make(map[id]int, len(items))
	out := items[:0]
	for _, it := range items {
		k := id{it.Kind, it.Key}
		if i, ok := index[k]; ok {
			cur := out[i]
			if it.Version > cur.Version || (it.Version == cur.Version && it.Modified >= cur.Modified) {
				out[i] = it
			}
			continue
		}
		index[k] = len(out)
		out = append(out, it)
	}
	return out
}
